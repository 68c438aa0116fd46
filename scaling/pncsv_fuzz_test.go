package scaling

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzReadPNCSV: any text read as "p,n,time" rows is refused as input (or too large), with
// a message quoting at most a short excerpt of the file, or gives points with p whole in
// 1 … 2^30 and n, time positive and finite.
func FuzzReadPNCSV(f *testing.F) {
	f.Add("# source: relearn\np,n,time\n1,1000,10\n2,1000,5.5\n4,2000,6\n")
	f.Add("p,n,time\n0,1,1\n")
	f.Add("p , n , time\n8, 1e6 ,3e-3\n")
	f.Fuzz(func(t *testing.T, s string) {
		pts, _, err := ReadPNCSV("f.csv", strings.NewReader(s))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrTooLarge) {
				t.Fatalf("not an input error: %v", err)
			}
			if len(err.Error()) > 300 {
				t.Fatalf("refusal of %d characters quotes too much: %.400s", len(err.Error()), err)
			}
			return
		}
		for _, p := range pts {
			if p.P < 1 || p.P > 1<<30 || !(p.N > 0) || math.IsInf(p.N, 0) || !(p.TimeS > 0) || math.IsInf(p.TimeS, 0) {
				t.Fatalf("accepted %+v", p)
			}
		}
	})
}
