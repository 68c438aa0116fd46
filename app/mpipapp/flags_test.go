package mpipapp

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequest: the collected values of examples/mpip/keck_cg_a.csv (--inputs) with the
// network 5us, 200MB/s (5e-6 s and 2e8 B/s by internal/units) and --predict 64,128 give a
// request with that constant network and two targets; two networks at once, a lone
// --latency, --piecewise without benchmarks and --samples 0 are each named, before any file
// is read.
func TestFlagsRequest(t *testing.T) {
	sz := app.DefaultSizingFlags()
	o := Flags{Inputs: "../../examples/mpip/keck_cg_a.csv", Latency: "5us", Bandwidth: "200MB/s", Predict: "64,128", Samples: 10, Seed: 1, Sizing: sz}
	var c app.FlagCheck
	q, err := o.Request(&c, os.ReadFile, nil)
	if err != nil || len(q.Predict) != 2 || q.Network == nil {
		t.Fatalf("%+v, %v", q, err)
	}
	read := func(path string) ([]byte, error) {
		t.Errorf("read %s before the options were checked", path)
		return nil, nil
	}
	for _, c := range []struct {
		f    Flags
		want string
	}{
		{Flags{Latency: "5us", Bandwidth: "1GB/s", Network: "n.csv", Samples: 1, Sizing: sz}, "give one network"},
		{Flags{Latency: "5us", Samples: 1, Sizing: sz}, "go together"},
		{Flags{Piecewise: true, Samples: 1, Sizing: sz}, "--piecewise"},
		{Flags{Samples: 0, Sizing: sz}, "--samples 0"},
	} {
		var fc app.FlagCheck
		_, err := c.f.Request(&fc, read, []string{"a.mpiP"})
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want bad input %q", c.f, err, c.want)
		}
	}
	if _, err := (Flags{Samples: 1, Sizing: sz}).Request(new(app.FlagCheck), os.ReadFile, nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("no input files: %v", err)
	}
}
