package tpn

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/netbench"
)

// MeanEstimate is a network parameter measured by repeated benchmark runs (002 §3: "the sample
// mean of the benchmark times, with a suitable confidence interval"): its point value, the
// standard error of that value and the degrees of freedom of its Student-t interval.
// Inverse: the estimate is of 1/B (a fitted slope, seconds per byte) rather than of B.
type MeanEstimate struct {
	Mean    float64 // the point value (s for t_s, B/s for B, s/byte when Inverse)
	StdErr  float64 // standard error of Mean
	DoF     int     // degrees of freedom (samples − 1, or benchmark sizes − 2)
	Inverse bool
	N       int // samples (or benchmark rows) behind it
}

// interval is the estimate's two-sided Student-t interval at level conf.
func (e MeanEstimate) interval(conf float64) (lo, hi float64) {
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(e.DoF)}.Quantile(1 - (1-conf)/2)
	h := q * e.StdErr
	return e.Mean - h, e.Mean + h
}

// NetUncertainty says how a medium's startup and bandwidth were measured (nil fields: given
// as constants). The medium's Startup and Bandwidth are the point values.
type NetUncertainty struct {
	Source    string        // "samples" or the benchmark files
	Startup   *MeanEstimate // t_s, s
	Bandwidth *MeanEstimate // B, B/s (or 1/B when Inverse)
	Line      int           // line of the network in the cluster file
}

// MaxNetSamples bounds the samples of one network parameter in a cluster file.
const MaxNetSamples = 100000

// sampleMean is the sample mean of xs with its standard error (002's estimator).
func sampleMean(xs []float64) MeanEstimate {
	n := float64(len(xs))
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / n
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return MeanEstimate{Mean: m, StdErr: math.Sqrt(ss / (n - 1) / n), DoF: len(xs) - 1, N: len(xs)}
}

// NetBounds is the predicted makespan's interval from the networks' measured t_s and B.
type NetBounds struct {
	LowS  float64 `json:"time_low_s"`
	HighS float64 `json:"time_high_s"`
	// Confidence is the joint level of the parameter box (≥, by Bonferroni); each parameter's
	// own interval is at ParamConfidence.
	Confidence      float64        `json:"confidence"`
	ParamConfidence float64        `json:"parameter_confidence"`
	Method          string         `json:"method"`
	Media           []MediumBounds `json:"networks"`
	Monotone        bool           `json:"monotone_checked"` // the point's time lay between the corners' times
	Notes           []string       `json:"notes,omitempty"`
}

// MediumBounds is one measured network's parameter intervals.
type MediumBounds struct {
	Network        string  `json:"network"`
	Source         string  `json:"source"`
	StartupS       float64 `json:"startup_s"`
	StartupLowS    float64 `json:"startup_low_s"`
	StartupHighS   float64 `json:"startup_high_s"`
	Bandwidth      float64 `json:"bandwidth_bytes_per_s"`
	BandwidthLow   float64 `json:"bandwidth_low_bytes_per_s"`
	BandwidthHigh  float64 `json:"bandwidth_high_bytes_per_s"`
	StartupSamples int     `json:"startup_samples"`
	BandwidthRows  int     `json:"bandwidth_samples"`
}

// Measured reports whether any network of the cluster has measured (uncertain) parameters.
func (c *Cluster) Measured() bool {
	for _, m := range c.media() {
		if m.Uncertainty != nil {
			return true
		}
	}
	return false
}

func (c *Cluster) media() []Medium {
	if len(c.Networks) > 0 {
		return c.Networks
	}
	return []Medium{c.Network}
}

// setMedia returns a copy of c whose networks are given by f of each original.
func (c *Cluster) withMedia(f func(Medium) Medium) *Cluster {
	cc := *c
	if len(c.Networks) > 0 {
		cc.Networks = make([]Medium, len(c.Networks))
		for i, m := range c.Networks {
			cc.Networks[i] = f(m)
		}
		return &cc
	}
	cc.Network = f(c.Network)
	return &cc
}

// NetworkBounds propagates the networks' measurement uncertainty to the makespan. Every
// measured parameter gets its Student-t interval at level 1 − 0.05/m (m measured parameters:
// the box holds all true means with probability ≥ 95 %, Bonferroni); the net is run at the
// box's two corners, every t_s low and B high (fastest) and every t_s high and B low
// (slowest). A program's deterministic makespan is a max-plus expression of its delays, each
// t_s + n/B non-decreasing in t_s and in 1/B, so on dedicated links the corners bound the
// makespan over the whole box; on a shared static medium a transfer's stretch k depends on
// the timing and monotonicity is not guaranteed: the point value is checked to lie between
// the corners (else the interval is widened to it, noted). Nil when no network is measured.
func NetworkBounds(ctx context.Context, prog *Program, cl *Cluster, bo BuildOptions, ro Options) (*NetBounds, error) {
	if !cl.Measured() {
		return nil, nil
	}
	m := 0
	for _, md := range cl.media() {
		if u := md.Uncertainty; u != nil {
			m += btoi(u.Startup != nil) + btoi(u.Bandwidth != nil)
		}
	}
	pc := 1 - 0.05/float64(m)
	b := &NetBounds{Confidence: 0.95, ParamConfidence: pc,
		Method: fmt.Sprintf("the net run at the two corners of the box of the measured parameters' Student-t intervals, each at %.4g %% (%d measured parameters, Bonferroni: joint ≥ 95 %%); t_s and B are sample means of repeated runs (002 §3) or fitted to OSU/IMB tables", 100*pc, m)}
	lo := cl.withMedia(func(md Medium) Medium { return corner(md, pc, false, b) })
	hi := cl.withMedia(func(md Medium) Medium { return corner(md, pc, true, nil) })
	if err := b.check(cl); err != nil {
		return nil, err
	}
	ro.Record = false
	times := [3]float64{}
	for i, c := range []*Cluster{lo, hi, cl} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := makespan(prog, c, bo, ro)
		if err != nil {
			return nil, fmt.Errorf("the %s corner of the network interval: %w", []string{"fast", "slow", "point"}[i], err)
		}
		times[i] = t
	}
	b.LowS, b.HighS = times[0], times[1]
	b.Monotone = times[0] <= times[2] && times[2] <= times[1]
	if !b.Monotone {
		b.LowS, b.HighS = math.Min(b.LowS, math.Min(times[1], times[2])), math.Max(b.HighS, math.Max(times[0], times[2]))
		b.Notes = append(b.Notes, fmt.Sprintf("the makespan is not monotone in the network's parameters here (fast corner %.6g s, point %.6g s, slow corner %.6g s: a shared medium's stretch depends on the timing): the interval spans the three, and may miss a worse point inside the box", times[0], times[2], times[1]))
	}
	return b, nil
}

// check refuses a bandwidth interval that reaches 0 or has no upper end: the samples are
// too few or too spread for an interval of the makespan.
func (b *NetBounds) check(cl *Cluster) error {
	for _, m := range b.Media {
		if !(m.BandwidthLow > 0) || math.IsInf(m.BandwidthHigh, 0) || math.IsNaN(m.BandwidthHigh) {
			line := 0
			for _, md := range cl.media() {
				if md.Name == m.Network && md.Uncertainty != nil {
					line = md.Uncertainty.Line
				}
			}
			return asInput(at(fileName(cl.File, "cluster"), line, "network %q: the %.4g %% interval of the bandwidth (%.4g … %.4g B/s) is not bounded away from 0 and infinity: too few or too spread samples for an interval of the time", m.Network, 100*b.ParamConfidence, m.BandwidthLow, m.BandwidthHigh))
		}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// corner sets a measured medium's t_s and B at one corner of their intervals (slow: t_s
// high, B low). A lower t_s bound below 0 is cut to 0 (a time); a B interval reaching 0 is
// refused by NetBounds.check. With rec, the medium's intervals are recorded.
func corner(md Medium, pc float64, slow bool, rec *NetBounds) Medium {
	u := md.Uncertainty
	if u == nil {
		return md
	}
	r := MediumBounds{Network: md.Name, Source: u.Source, StartupS: md.Startup, StartupLowS: md.Startup, StartupHighS: md.Startup,
		Bandwidth: md.Bandwidth, BandwidthLow: md.Bandwidth, BandwidthHigh: md.Bandwidth}
	if e := u.Startup; e != nil {
		l, h := e.interval(pc)
		r.StartupLowS, r.StartupHighS, r.StartupSamples = math.Max(l, 0), h, e.N
	}
	if e := u.Bandwidth; e != nil {
		l, h := e.interval(pc)
		if e.Inverse { // an interval of 1/B: B's ends are the reciprocals, swapped
			l, h = 1/h, 1/math.Max(l, 0)
		}
		r.BandwidthLow, r.BandwidthHigh, r.BandwidthRows = l, h, e.N
	}
	if rec != nil {
		rec.Media = append(rec.Media, r)
	}
	if slow {
		md.Startup, md.Bandwidth = r.StartupHighS, r.BandwidthLow
	} else {
		md.Startup, md.Bandwidth = r.StartupLowS, r.BandwidthHigh
	}
	return md
}

// makespan builds and runs the net of prog on c to its final marking.
func makespan(prog *Program, c *Cluster, bo BuildOptions, ro Options) (float64, error) {
	net, err := BuildWith(prog, c, bo)
	if err != nil {
		return 0, err
	}
	res, err := net.Run(ro)
	if err != nil {
		return 0, err
	}
	if err := res.Err(); err != nil {
		return 0, err
	}
	return Seconds(res.Time), nil
}

// String is the interval in one line, for notes.
func (b *NetBounds) String() string {
	var parts []string
	for _, m := range b.Media {
		parts = append(parts, fmt.Sprintf("%s: t_s %.4g … %.4g s, B %.4g … %.4g B/s", m.Network, m.StartupLowS, m.StartupHighS, m.BandwidthLow, m.BandwidthHigh))
	}
	return fmt.Sprintf("%.6g … %.6g s (≥ %.0f %% joint confidence in the network's parameters; %s)", b.LowS, b.HighS, 100*b.Confidence, strings.Join(parts, "; "))
}

// parseBenchmark decodes a network's benchmark: list of OSU or IMB outputs (netbench.Parse):
// t(n) = t_s + n/B fitted by netbench.FitLinear, t_s from the latency table (osu_latency,
// IMB PingPong), 1/B from the bandwidth table (osu_bw, osu_bibw) when one is given, else the
// latency table's slope. Each fitted parameter keeps its standard error (the fit's 95 %
// half-width over the Student-t quantile) for NetworkBounds.
func parseBenchmark(net map[string]spec.Node, m *Medium, read ReadFunc) {
	v, ok := net["benchmark"]
	if !ok {
		return
	}
	for _, k := range []string{"startup", "bandwidth", "startup_samples", "bandwidth_samples"} {
		if net[k].Valid() {
			net[k].Errorf("give %s or benchmark, not both", k)
			return
		}
	}
	if read == nil {
		v.Errorf("benchmark files are read by the tpn command (this reader has no file access)")
		return
	}
	var lat, bw []netbench.Sample
	var files []string
	for _, fn := range v.List() {
		name := fn.String()
		data, err := read(name)
		if err != nil {
			fn.Errorf("%v", err)
			return
		}
		t, err := netbench.Parse(name, bytes.NewReader(data))
		if err != nil {
			fn.Errorf("%v", err)
			return
		}
		s, _ := t.Samples()
		if t.Kind == netbench.OSULatency || t.Kind == netbench.IMBPingPong {
			lat = append(lat, s...)
		} else {
			bw = append(bw, s...)
		}
		files = append(files, name)
	}
	if len(lat) == 0 {
		v.Errorf("no latency table (osu_latency or IMB PingPong) among the benchmark files: t_s comes from one (osu_bw's intercept is a per-message overhead, not the startup)")
		return
	}
	lf, err := netbench.FitLinear(lat)
	if err != nil {
		v.Errorf("latency table: %v", err)
		return
	}
	bf := lf
	if len(bw) > 0 {
		if bf, err = netbench.FitLinear(bw); err != nil {
			v.Errorf("bandwidth table: %v", err)
			return
		}
	}
	if lf.DegreesOfFreedom < 1 || bf.DegreesOfFreedom < 1 || !(bf.SecondsPerByte > 0) {
		v.Errorf("the benchmark fits give no interval of t_s and B (need 3 or more message sizes, and times growing with size)")
		return
	}
	st := fitEstimate(lf.LatencyS, lf.LatencyHighS, lf)
	sb := fitEstimate(bf.SecondsPerByte, bf.SecondsPerByteHigh, bf)
	sb.Inverse = true
	m.Startup, m.Bandwidth = lf.LatencyS, 1/bf.SecondsPerByte
	m.Uncertainty = &NetUncertainty{Source: "benchmark " + strings.Join(files, ", "), Startup: &st, Bandwidth: &sb, Line: v.Line()}
}

// fitEstimate is a fitted parameter as an estimate: the standard error recovered from the
// fit's 95 % half-width (high − value) over the Student-t quantile of its degrees of freedom.
func fitEstimate(value, high float64, f netbench.LinearFit) MeanEstimate {
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(f.DegreesOfFreedom)}.Quantile(0.975)
	return MeanEstimate{Mean: value, StdErr: (high - value) / q, DoF: f.DegreesOfFreedom, N: f.Points}
}
