package tpn

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/workload"
)

var workloadStudy = flag.String("workload-study", "", "write the workload-classes study (issue 33) to this markdown file")

// studyLog is a background log for the study: its demands rescaled to mean D = 0.5 s and its
// jobs arriving at λ = U/D (the shape of the demand distribution is what a log gives).
type studyLog struct {
	name string
	jobs []workload.Job
}

// generatedLog: 2 000 jobs, 90 % of mean 0.1 s and 10 % of mean 5 s, each exponential
// (seeded): a two-mode, high-CV demand (CV ≈ 2.6).
func generatedLog() studyLog {
	r := rand.New(rand.NewPCG(33, 2))
	jobs := make([]workload.Job, 2000)
	for i := range jobs {
		m := 0.1
		if r.Float64() < 0.1 {
			m = 5
		}
		jobs[i] = workload.Job{Arrival: float64(i), Demand: m * r.ExpFloat64()}
	}
	return studyLog{"generated: 90 % exp(0.1 s) + 10 % exp(5 s), 2 000 jobs", jobs}
}

func nasaLog(t testing.TB) studyLog {
	f, err := os.Open("../testdata/workload/nasa-ipsc-1993-5000.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jobs, err := workload.ReadJobs("nasa-ipsc-1993-5000.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	return studyLog{"NASA Ames iPSC/860 1993 (Parallel Workloads Archive), first 5 000 jobs", jobs}
}

// rescale returns the log's demands scaled to mean d and a copy of the jobs so scaled.
func rescale(jobs []workload.Job, d float64) ([]float64, []workload.Job) {
	var s float64
	for _, j := range jobs {
		s += j.Demand
	}
	k := d * float64(len(jobs)) / s
	vals := make([]float64, len(jobs))
	out := make([]workload.Job, len(jobs))
	for i, j := range jobs {
		vals[i], out[i] = j.Demand*k, workload.Job{Arrival: j.Arrival, Demand: j.Demand * k}
	}
	return vals, out
}

// classesRow runs 002's matmul ring (loadStudyRow's cluster: four workstations of power 1,
// dedicated 100 Mbit/s links) with every workstation loaded at U by the log's jobs, three
// ways, each sampled in reps replications: the log's own demands resampled (sim.Empirical:
// the reference), one exponential class of the log's mean (002's assumption), and the k-means
// classes (BackgroundClasses: gamma demands of each class's CV); and the mean expansion.
func classesRow(t testing.TB, lg studyLog, u float64, reps int) (det float64, ref, one, cls *Replications, s *workload.Split) {
	const d = 0.5
	vals, jobs := rescale(lg.jobs, d)
	s, err := workload.Classify(jobs, 0)
	if err != nil {
		t.Fatal(err)
	}
	scale := (u / d) / s.All.ArrivalRate // λ = U/D in all, each class keeping its share
	var bgCls []BgClass
	for _, b := range BackgroundClasses(s.Classes) {
		b.ArrivalRate *= scale
		bgCls = append(bgCls, b)
	}
	run := func(bg []BgClass) (float64, *Replications) {
		p, _ := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
		c := &Cluster{Network: Medium{Startup: 0.001, Bandwidth: 12.5e6}}
		for _, w := range []string{"ws1", "ws2", "ws3", "ws4"} {
			c.Workstations = append(c.Workstations, Workstation{Name: w, Power: 1, Background: bg})
		}
		n := build(t, p, c)
		r := runCompleted(t, n, Options{})
		st, err := Replicate(context.Background(), n, ReplicateOptions{Reps: reps, Seed: 7, Baseline: r})
		if err != nil {
			t.Fatal(err)
		}
		return Seconds(r.Time), st
	}
	det, ref = run([]BgClass{{ArrivalRate: u / d, Demand: d, Demands: sim.Empirical{Values: vals}}})
	_, one = run([]BgClass{{ArrivalRate: u / d, Demand: d}})
	_, cls = run(bgCls)
	return det, ref, one, cls, s
}

// TestWorkloadClassesStudy regenerates docs/workload-classes.md with
//
//	go test ./tpn -run TestWorkloadClassesStudy -workload-study $PWD/docs/workload-classes.md
//
// (without the flag: a smoke run of 4 replications, checking the classes' utilization adds up).
func TestWorkloadClassesStudy(t *testing.T) {
	reps, us := 4, []float64{0.5}
	if *workloadStudy != "" {
		reps, us = 400, []float64{0.2, 0.5, 0.8}
	}
	var b strings.Builder
	for _, lg := range []studyLog{generatedLog(), nasaLog(t)} {
		for i, u := range us {
			det, ref, one, cls, s := classesRow(t, lg, u, reps)
			var su float64
			for _, c := range s.Classes {
				su += c.Utilization()
				if !(c.CV < s.All.CV) {
					t.Errorf("%s: a class of CV %g, not below the log's %g (002: classes of smaller CV)", lg.name, c.CV, s.All.CV)
				}
			}
			if d := su - s.All.Utilization(); d > 1e-9*su || d < -1e-9*su {
				t.Errorf("%s: classes' U %g, the log's %g", lg.name, su, s.All.Utilization())
			}
			if i == 0 {
				fmt.Fprintf(&b, "\n### %s\n\nDemand CV %.3g; %s.\n\n| class | jobs | mean demand (s, rescaled) | CV |\n|---|---|---|---|\n", lg.name, s.All.CV, s.Criterion)
				for k, c := range s.Classes {
					fmt.Fprintf(&b, "| %d | %d | %.4g | %.3g |\n", k+1, c.Jobs, c.MeanDemand, c.CV)
				}
				fmt.Fprintf(&b, "\n| U | log resampled (reference), s | one exponential class, s | error | k-means classes, s | error | mean expansion 1/(1 − U), s | error |\n|---|---|---|---|---|---|---|---|\n")
			}
			rel := func(x float64) string { return fmt.Sprintf("%+.1f %%", 100*(x-ref.MeanS)/ref.MeanS) }
			fmt.Fprintf(&b, "| %.1f | %.4f ± %.4f | %.4f ± %.4f | %s | %.4f ± %.4f | %s | %.4f | %s |\n", u, ref.MeanS, ref.HalfWidthS, one.MeanS, one.HalfWidthS, rel(one.MeanS), cls.MeanS, cls.HalfWidthS, rel(cls.MeanS), det, rel(det))
		}
	}
	t.Log(b.String())
	if *workloadStudy != "" {
		if err := os.WriteFile(*workloadStudy, []byte(studyHeader+b.String()+studyFooter), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const studyHeader = `# Workload classes: does splitting the background jobs help? (issue 33, 002 §3)

002 §3 reports that 002's mean expansion 1/(1 − U) underestimates more as the coefficient of
variation of the background CPU demand grows, and suggests splitting the background jobs
into classes of smaller CV by cluster analysis. Package workload does the split: k-means on
the demand, k chosen by the largest Calinski–Harabasz index (Calinski and Harabasz 1974)
when the demand's CV is above 1; ` + "`tpn`" + ` takes a log as a workstation's
` + "`background_log: {file: JOBS.csv}`" + `.

Set-up (tpn/classes_test.go, regenerated by
` + "`go test ./tpn -run TestWorkloadClassesStudy -workload-study $PWD/docs/workload-classes.md`" + `):
002's matrix-multiplication ring (examples/tpn/matmul.yaml) on four workstations of power 1
with dedicated 100 Mbit/s links, every workstation loaded at utilization U by background
jobs arriving as a Poisson stream; each log's demands are rescaled to a mean of 0.5 s (the
log gives the shape of the demand distribution). The reference resamples the log's own
demands (sim.Empirical); "one exponential class" is 002's assumption with the log's mean;
"k-means classes" is one Poisson stream per class with gamma demands of the class's mean and
CV. Each column is the mean makespan of 400 sampled replications (seed 7) with its 95 %
half-width; error is against the reference. The CPUs are ideal processor sharing.
`

const studyFooter = `
## Reading

The mean expansion 1/(1 − U) is the same with and without classes (U = Σ λ_c·D_c = λ·D),
so classes can only change a sampled prediction. On a processor-sharing CPU with Poisson
arrivals the mean slowdown of a step does not depend on the demand distribution (M/G/1-PS
insensitivity, docs/studies-findings.md §1), so the three sampled columns differ only through
the program's synchronisations (a receive waits for the slower path), which the spread of
the slowdowns reaches. Where the one-class column's error is outside the half-widths and the
classes' is not, the classes improve the prediction; where both are within the half-widths,
the demand distribution does not matter at this U for this program, and the table says so.
`

// TestBackgroundLogRefusals: a background_log is read relative to the cluster file and
// refused naming the line (the log's own errors name the log's line).
func TestBackgroundLogRefusals(t *testing.T) {
	read := func(p string) ([]byte, error) {
		switch p {
		case "dir/jobs.csv":
			return []byte("arrival_time,cpu_demand\n0,0.1\n10,5\n20,0.1\n30,0.1\n"), nil
		case "dir/bad.csv":
			return []byte("arrival_time,cpu_demand\n0,0.1\n1,-5\n"), nil
		}
		return nil, os.ErrNotExist
	}
	head := "workstations:\n  - name: a\n    power: 1\n"
	c, err := ParseClusterWith("dir/c.yaml", []byte(head+"    background_log: {file: jobs.csv}\n"), read)
	if err != nil || len(c.Workstations[0].Background) == 0 || c.Workstations[0].Classes == nil {
		t.Fatalf("%v %+v", err, c)
	}
	for _, tc := range []struct{ body, want string }{
		{"    background_log: {file: bad.csv}\n", "bad.csv:3: cpu_demand \"-5\""},
		{"    background_log: {file: none.csv}\n", "dir/c.yaml:4"},
		{"    background_log: {file: jobs.csv, classes: 9}\n", "dir/c.yaml:4"},
		{"    background: [{arrival_rate: 1, demand: 0.1}]\n    background_log: {file: jobs.csv}\n", "give background or background_log, not both"},
	} {
		if _, err := ParseClusterWith("dir/c.yaml", []byte(head+tc.body), read); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
	if _, err := ParseCluster("c.yaml", []byte(head+"    background_log: {file: jobs.csv}\n")); err == nil || !strings.Contains(err.Error(), "no file access") {
		t.Errorf("no reader: %v", err)
	}
}
