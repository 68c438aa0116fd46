package main

import (
	"bytes"
	"fmt"

	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/netbench"
)

// mpipNetwork is the network the reports' models use and where it came from.
type mpipNetwork struct {
	Source             string               `json:"source"` // latency/bandwidth, table, benchmark
	Files              []string             `json:"files,omitempty"`
	LatencyS           *float64             `json:"latency_s,omitempty"` // constant networks
	BandwidthBytesPerS *float64             `json:"bandwidth_bytes_per_s,omitempty"`
	Fits               []netbench.LinearFit `json:"fits,omitempty"`
	Piecewise          *netbench.Piecewise  `json:"piecewise,omitempty"`
	Notes              []string             `json:"notes,omitempty"`
	net                mpip.Network
}

// net is the network of --network, --latency/--bandwidth or --osu/--imb; nil when none.
func (o mpipOptions) net() (*mpipNetwork, error) {
	switch {
	case o.network != "":
		b, err := readInput(o.network)
		if err != nil {
			return nil, err
		}
		net, err := mpip.ReadNetwork(o.network, bytes.NewReader(b))
		if err != nil {
			return nil, badInput(err)
		}
		return &mpipNetwork{Source: "table", Files: []string{o.network}, net: net}, nil
	case o.latency != "":
		lat, err := units.Duration(o.latency)
		if err != nil {
			return nil, badInputf("--latency: %v", err)
		}
		bw, err := units.Bandwidth(o.bandwidth)
		if err != nil {
			return nil, badInputf("--bandwidth: %v", err)
		}
		if !(bw >= 1 && bw <= 1e15) || !(lat >= 0 && lat <= 1e3) {
			return nil, badInputf("--latency %s --bandwidth %s: allowed latency 0 … 1000 s and bandwidth 1 B/s … 1 PB/s", o.latency, o.bandwidth)
		}
		return constNet("latency/bandwidth", lat, bw), nil
	case len(o.osu) > 0 || o.imb != "":
		return o.benchNet()
	}
	return nil, nil
}

func constNet(source string, lat, bw float64) *mpipNetwork {
	return &mpipNetwork{Source: source, LatencyS: &lat, BandwidthBytesPerS: &bw, net: mpip.ConstNetwork(lat, bw)}
}

// benchNet fits t(n) = t_s + n/B to the benchmark outputs: the latency t_s from a latency
// table (osu_latency, IMB PingPong), the bandwidth B from a bandwidth table (osu_bw,
// osu_bibw) when one is given, else from the latency table's slope.
func (o mpipOptions) benchNet() (*mpipNetwork, error) {
	files := append([]string{}, o.osu...)
	if o.imb != "" {
		files = append(files, o.imb)
	}
	nw := &mpipNetwork{Source: "benchmark", Files: files}
	var latS, bwS []netbench.Sample
	var latFile, bwFile string
	for _, f := range files {
		b, err := readInput(f)
		if err != nil {
			return nil, err
		}
		t, err := netbench.Parse(f, bytes.NewReader(b))
		if err != nil {
			return nil, badInput(err)
		}
		s, notes := t.Samples()
		nw.Notes = append(append(nw.Notes, t.Notes...), notes...)
		if t.Kind == netbench.OSULatency || t.Kind == netbench.IMBPingPong {
			latS, latFile = append(latS, s...), f
		} else {
			bwS, bwFile = append(bwS, s...), f
		}
	}
	if o.piecewise {
		return nw.piecewise(latS, bwS)
	}
	return nw.linear(latS, bwS, latFile, bwFile)
}

func (nw *mpipNetwork) linear(latS, bwS []netbench.Sample, latFile, bwFile string) (*mpipNetwork, error) {
	var lat, bw *float64
	for _, x := range []struct {
		s    []netbench.Sample
		file string
	}{{latS, latFile}, {bwS, bwFile}} {
		if len(x.s) == 0 {
			continue
		}
		f, err := netbench.FitLinear(x.s)
		if err != nil {
			return nil, badInputf("%s: %v", x.file, err)
		}
		nw.Fits = append(nw.Fits, f)
		nw.Notes = append(nw.Notes, prefixed(x.file, f.Notes)...)
		if x.file == latFile && lat == nil {
			l := f.LatencyS
			lat, bw = &l, f.BandwidthBytesPerS
		} else {
			if lat == nil {
				l := f.LatencyS
				lat = &l
				nw.Notes = append(nw.Notes, x.file+": no latency benchmark: the latency is the bandwidth table's intercept (an underestimate; add osu_latency)")
			}
			bw = f.BandwidthBytesPerS
		}
	}
	if bw == nil {
		return nil, badInputf("%s: the benchmark times do not grow with message size: no bandwidth; add an osu_bw output (--osu) or give --bandwidth", bwFile+latFile)
	}
	l := max(*lat, 0)
	if *lat < 0 {
		nw.Notes = append(nw.Notes, fmt.Sprintf("fitted latency %.3g s < 0 clipped to 0", *lat))
	}
	out := constNet("benchmark", l, *bw)
	out.Files, out.Fits, out.Notes = nw.Files, nw.Fits, append(nw.Notes, fmt.Sprintf("network from the benchmarks: latency %.4g s, bandwidth %.4g bytes/s (t(n) = t_s + n/B)", l, *bw))
	return out, nil
}

// piecewise: t(n) fitted below and above a break size (chosen from the data); the network is
// then a table by message size with the two ranges' latency and bandwidth.
func (nw *mpipNetwork) piecewise(latS, bwS []netbench.Sample) (*mpipNetwork, error) {
	s := latS
	if len(s) == 0 {
		s = bwS
	}
	pw, err := netbench.FitPiecewise(s, 0)
	if err != nil {
		return nil, badInputf("--piecewise %v: %v", nw.Files, err)
	}
	nw.Piecewise = &pw
	nw.Notes = append(nw.Notes, pw.Notes...)
	var pts []mpip.NetPoint
	for i, f := range []netbench.LinearFit{pw.Below, pw.Above} {
		if f.BandwidthBytesPerS == nil {
			return nil, badInputf("--piecewise %v: the %s range's times do not grow with size: no bandwidth", nw.Files, []string{"lower", "upper"}[i])
		}
		key := pw.BreakBytes - 1 + float64(i)
		pts = append(pts, mpip.NetPoint{Key: key, Latency: max(f.LatencyS, 0), Bandwidth: *f.BandwidthBytesPerS})
	}
	nw.net = mpip.Network{By: "size", Points: pts}
	nw.Notes = append(nw.Notes, fmt.Sprintf("network by message size: below %.0f bytes latency %.4g s, bandwidth %.4g bytes/s; from it on %.4g s, %.4g bytes/s", pw.BreakBytes, pts[0].Latency, pts[0].Bandwidth, pts[1].Latency, pts[1].Bandwidth))
	return nw, nil
}

func prefixed(file string, notes []string) []string {
	var out []string
	for _, n := range notes {
		out = append(out, file+": "+n)
	}
	return out
}
