package tpn

import (
	"bytes"
	"math"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/workload"
)

// BackgroundClasses turns a background log's classes (package workload) into job streams:
// each class arrives as a Poisson stream at its share of the log's rate (002's open classes,
// exponential inter-arrival times) with its mean demand; a sampled run draws its demands from
// a gamma distribution of the class's CV (shape 1/CV², at least 1/MaxSampledSCV; a CV of 0 is
// deterministic). The mean expansion 1/(1 − U) is the same whatever the split (U = Σ λ_c·D_c
// = λ·D): only --background sampled sees the classes.
func BackgroundClasses(cs []workload.Class) []BgClass {
	out := make([]BgClass, 0, len(cs))
	for _, c := range cs {
		b := BgClass{ArrivalRate: c.ArrivalRate, Demand: c.MeanDemand, Demands: demandDist(c.CV)}
		out = append(out, b)
	}
	return out
}

func demandDist(cv float64) sim.Dist {
	if cv == 0 {
		return sim.Deterministic{}
	}
	return sim.Gamma{Shape: math.Min(math.Max(1/(cv*cv), 1/MaxSampledSCV), 1e6)}
}

// parseBackgroundLog decodes a workstation's background_log: {file: JOBS.csv, classes: auto
// | K} (workload.ReadJobs; auto: workload.Classify's criterion), read with read.
func parseBackgroundLog(n spec.Node, read ReadFunc) ([]BgClass, *workload.Split) {
	if !n.Valid() {
		return nil, nil
	}
	g := n.Decode(spec.Key("file"), spec.Key("classes"))
	if read == nil {
		n.Errorf("background logs are read by the tpn command (this reader has no file access)")
		return nil, nil
	}
	k := 0
	if v, ok := g["classes"]; ok && v.String() != "auto" {
		k = v.Int(1, workload.MaxClasses)
	}
	name := g["file"].String()
	data, err := read(name)
	if err != nil {
		g["file"].Errorf("%v", err)
		return nil, nil
	}
	jobs, err := workload.ReadJobs(name, bytes.NewReader(data))
	if err != nil {
		g["file"].Errorf("%v", err)
		return nil, nil
	}
	s, err := workload.Classify(jobs, k)
	if err != nil {
		n.Errorf("%v", err)
		return nil, nil
	}
	return BackgroundClasses(s.Classes), s
}
