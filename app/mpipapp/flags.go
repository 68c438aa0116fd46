package mpipapp

import (
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/internal/units"
)

// Flags are the mpip command's options as given: the network (--latency/--bandwidth with
// units, --network's CSV, --osu/--imb benchmark outputs), the collected-values CSV, the
// wait operations comma-separated, the P to predict in the range syntax, the sizing rule.
type Flags struct {
	Latency, Bandwidth string
	Network            string
	OSU                []string
	IMB                string
	Piecewise          bool
	Inputs             string
	AllowMixed         bool
	WaitOps            string
	Collectives        bool
	Calibrate          bool
	Predict            string
	Explain            float64
	Samples            int
	Seed               uint64
	Sizing             app.SizingFlags
	Plot               string // --plot FILE.svg|png (checked here, drawn by the command)
}

// Request checks the options (every problem into c, before any work), then reads every
// report and CSV of collected values once with read, and the network's files, into the
// request.
func (o Flags) Request(c *app.FlagCheck, read func(string) ([]byte, error), files []string) (Request, error) {
	targets := o.check(c)
	if err := c.Err(); err != nil {
		return Request{}, err
	}
	q := Request{AllowMixed: o.AllowMixed, Collectives: o.Collectives, Calibrate: o.Calibrate, Predict: targets,
		ExplainThreshold: o.Explain, Samples: o.Samples, Seed: o.Seed, Sizing: o.Sizing.Options(nil)}
	if o.WaitOps != "" {
		q.WaitOps = strings.Split(o.WaitOps, ",")
	}
	if o.Inputs != "" {
		files = append(slices.Clone(files), o.Inputs)
	}
	if len(files) == 0 {
		return q, app.Inputf("mpip: give mpiP reports or a CSV of collected values (see clusterperf help mpip)")
	}
	datas, err := readAll(read, files)
	if err != nil {
		return q, err
	}
	if err := q.AddInputs(files, datas); err != nil {
		return q, err
	}
	q.Network, err = o.net(read)
	return q, err
}

// check records the options' range errors and returns the P to predict.
func (o Flags) check(c *app.FlagCheck) []int {
	o.Sizing.Check(c)
	c.Output("plot", o.Plot, ".svg", ".png")
	c.AtLeast("samples", int64(o.Samples), 1)
	if o.Samples > 10_000_000 {
		c.Add("--samples %d: at most 10000000", o.Samples)
	}
	c.NonNegative("explain-threshold", o.Explain, "never explain")
	sources := 0
	for _, on := range []bool{o.Latency != "" || o.Bandwidth != "", o.Network != "", len(o.OSU) > 0 || o.IMB != ""} {
		if on {
			sources++
		}
	}
	switch {
	case sources > 1:
		c.Add("give one network: --latency/--bandwidth, --network, or --osu/--imb")
	case (o.Latency == "") != (o.Bandwidth == ""):
		c.Add("--latency and --bandwidth go together (e.g. --latency 5us --bandwidth 200MB/s)")
	}
	if o.Piecewise && len(o.OSU) == 0 && o.IMB == "" {
		c.Add("--piecewise fits --osu/--imb benchmark outputs: give one")
	}
	if o.Predict == "" {
		return nil
	}
	return c.Range("predict", o.Predict, ranges.Limits{Min: 1, Max: 1 << 20, MaxCount: app.MaxPredictions})
}

// readAll reads every file of files with read.
func readAll(read func(string) ([]byte, error), files []string) ([][]byte, error) {
	datas := make([][]byte, len(files))
	for i, path := range files {
		b, err := read(path)
		if err != nil {
			return nil, err
		}
		datas[i] = b
	}
	return datas, nil
}

// net is the network of --network, --latency/--bandwidth or --osu/--imb; nil when none.
func (o Flags) net(read func(string) ([]byte, error)) (*Network, error) {
	switch {
	case o.Network != "":
		b, err := read(o.Network)
		if err != nil {
			return nil, err
		}
		return DecodeNetwork(o.Network, b)
	case o.Latency != "":
		lat, err := units.Duration(o.Latency)
		if err != nil {
			return nil, app.Inputf("--latency: %v", err)
		}
		bw, err := units.Bandwidth(o.Bandwidth)
		if err != nil {
			return nil, app.Inputf("--bandwidth: %v", err)
		}
		if !(bw >= 1 && bw <= 1e15) || !(lat >= 0 && lat <= 1e3) {
			return nil, app.Inputf("--latency %s --bandwidth %s: allowed latency 0 … 1000 s and bandwidth 1 B/s … 1 PB/s", o.Latency, o.Bandwidth)
		}
		return ConstNetwork("latency/bandwidth", lat, bw), nil
	case len(o.OSU) > 0 || o.IMB != "":
		files := slices.DeleteFunc(append(slices.Clone(o.OSU), o.IMB), func(f string) bool { return f == "" })
		datas, err := readAll(read, files)
		if err != nil {
			return nil, err
		}
		return DecodeBenchmarks(files, datas, o.Piecewise)
	}
	return nil, nil
}
