package explore

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestLoadFiles: one model file loads by its kind; a cluster file with several reports, a
// malformed latency and the same report twice are bad input naming the cause.
func TestLoadFiles(t *testing.T) {
	m, err := LoadFiles(os.ReadFile, Files{Paths: []string{"../examples/qn/central-server.yaml"}})
	if err != nil || m == nil {
		t.Fatalf("central-server: %v", err)
	}
	rep := "../mpip/testdata/samples/mpiP_cm__amg2013.16.5362.1.mpiP"
	for _, c := range []struct {
		f    Files
		want string
	}{
		{Files{Paths: []string{rep, rep}, Cluster: "c.yaml"}, "--cluster belongs to a Petri-net program"},
		{Files{Paths: []string{rep}, Latency: "fast"}, "--latency"},
		{Files{Paths: []string{rep, rep}}, ""},
	} {
		_, err := LoadFiles(os.ReadFile, c.f)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want bad input %q", c.f, err, c.want)
		}
	}
}
