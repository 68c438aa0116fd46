package mpipapp

import (
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/netbench"
)

// Network is the network the reports' models use and where it came from.
type Network struct {
	Source             string               `json:"source"` // latency/bandwidth, table, benchmark
	Files              []string             `json:"files,omitempty"`
	LatencyS           *float64             `json:"latency_s,omitempty"` // constant networks
	BandwidthBytesPerS *float64             `json:"bandwidth_bytes_per_s,omitempty"`
	Fits               []netbench.LinearFit `json:"fits,omitempty"`
	Piecewise          *netbench.Piecewise  `json:"piecewise,omitempty"`
	Notes              []string             `json:"notes,omitempty"`
	net                mpip.Network
}

// ConstNetwork is a constant latency (s) and bandwidth (bytes/s) from source.
func ConstNetwork(source string, lat, bw float64) *Network {
	return &Network{Source: source, LatencyS: &lat, BandwidthBytesPerS: &bw, net: mpip.ConstNetwork(lat, bw)}
}

// TableNetwork is a network table read from file (mpip.ReadNetwork).
func TableNetwork(file string, net mpip.Network) *Network {
	return &Network{Source: "table", Files: []string{file}, net: net}
}

// Benchmark is one parsed benchmark output (netbench.Parse) and its file.
type Benchmark struct {
	File  string
	Table *netbench.Table
}

// BenchmarkNetwork fits t(n) = t_s + n/B to the benchmark outputs: the latency t_s from a
// latency table (osu_latency, IMB PingPong), the bandwidth B from a bandwidth table (osu_bw,
// osu_bibw) when one is given, else from the latency table's slope; piecewise: in two
// message-size ranges (eager/rendezvous) with the break chosen from the data.
func BenchmarkNetwork(benches []Benchmark, piecewise bool) (*Network, error) {
	nw := &Network{Source: "benchmark"}
	var latS, bwS []netbench.Sample
	var latFile, bwFile string
	for _, b := range benches {
		nw.Files = append(nw.Files, b.File)
		s, notes := b.Table.Samples()
		nw.Notes = append(append(nw.Notes, b.Table.Notes...), notes...)
		if b.Table.Kind == netbench.OSULatency || b.Table.Kind == netbench.IMBPingPong {
			latS, latFile = append(latS, s...), b.File
		} else {
			bwS, bwFile = append(bwS, s...), b.File
		}
	}
	if piecewise {
		return nw.piecewise(latS, bwS)
	}
	return nw.linear(latS, bwS, latFile, bwFile)
}

func (nw *Network) linear(latS, bwS []netbench.Sample, latFile, bwFile string) (*Network, error) {
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
			return nil, app.Inputf("%s: %v", x.file, err)
		}
		nw.Fits = append(nw.Fits, f)
		nw.Notes = append(nw.Notes, app.Prefixed(x.file, f.Notes)...)
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
		return nil, app.Inputf("%s: the benchmark times do not grow with message size: no bandwidth; add an osu_bw output (--osu) or give --bandwidth", bwFile+latFile)
	}
	l := max(*lat, 0)
	if *lat < 0 {
		nw.Notes = append(nw.Notes, fmt.Sprintf("fitted latency %.3g s < 0 clipped to 0", *lat))
	}
	out := ConstNetwork("benchmark", l, *bw)
	out.Files, out.Fits, out.Notes = nw.Files, nw.Fits, append(nw.Notes, fmt.Sprintf("network from the benchmarks: latency %.4g s, bandwidth %.4g bytes/s (t(n) = t_s + n/B)", l, *bw))
	return out, nil
}

// piecewise: t(n) fitted below and above a break size (chosen from the data); the network is
// then a table by message size with the two ranges' latency and bandwidth.
func (nw *Network) piecewise(latS, bwS []netbench.Sample) (*Network, error) {
	s := latS
	if len(s) == 0 {
		s = bwS
	}
	pw, err := netbench.FitPiecewise(s, 0)
	if err != nil {
		return nil, app.Inputf("--piecewise %v: %v", nw.Files, err)
	}
	nw.Piecewise = &pw
	nw.Notes = append(nw.Notes, pw.Notes...)
	var pts []mpip.NetPoint
	for i, f := range []netbench.LinearFit{pw.Below, pw.Above} {
		if f.BandwidthBytesPerS == nil {
			return nil, app.Inputf("--piecewise %v: the %s range's times do not grow with size: no bandwidth", nw.Files, []string{"lower", "upper"}[i])
		}
		key := pw.BreakBytes - 1 + float64(i)
		pts = append(pts, mpip.NetPoint{Key: key, Latency: max(f.LatencyS, 0), Bandwidth: *f.BandwidthBytesPerS})
	}
	nw.net = mpip.Network{By: "size", Points: pts}
	nw.Notes = append(nw.Notes, fmt.Sprintf("network by message size: below %.0f bytes latency %.4g s, bandwidth %.4g bytes/s; from it on %.4g s, %.4g bytes/s", pw.BreakBytes, pts[0].Latency, pts[0].Bandwidth, pts[1].Latency, pts[1].Bandwidth))
	return nw, nil
}
