package cubeapp

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSetRefusalsNameTheFlag (hostile7 P2-1, P2-10): a set that cannot be modelled is
// refused with exit 2 naming what gave the bad value — `--param x,y` where y is 1 in all 9
// profiles of single_parameter (a c2·log2(y) term in every model at exit 0 before), three
// copies of one profile at --values 1,1,1 (models: null and a "0 grow" note at exit 0), and
// --values NaN,2,4 / 0,1,2 (blamed on the first .cubex file before).
func TestSetRefusalsNameTheFlag(t *testing.T) {
	const set = "../../cube/testdata/single_parameter"
	const c = "../../cube/testdata/synthetic-mpi.cubex"
	for _, tc := range []struct {
		q    Request
		want string
	}{
		{Request{Paths: []string{set}, Param: "x,y"}, "--param x,y: y takes one value (1) in all 9 profiles"},
		{Request{Paths: []string{c, c, c}, Values: []float64{1, 1, 1}, Param: "p"}, "--values: p takes one value (1) in all 3 profiles"},
		{Request{Paths: []string{c, c, c}, Values: []float64{math.NaN(), 2, 4}}, "--values: value 1 (NaN, for " + c + ")"},
		{Request{Paths: []string{c, c, c}, Values: []float64{0, 1, 2}}, "--values: value 1 (0, for " + c + ")"},
		// hostile7 P3-1, P3-2: an unknown name got advice about another parameter; "x," was x
		{Request{Paths: []string{set}, Param: "q"}, "--param q: the profiles have no parameter q (they have x, y, z)"},
		{Request{Paths: []string{set}, Param: "x,"}, `--param "x,": an empty name`},
		{Request{Paths: []string{set}, Param: ",y"}, `--param ",y": an empty name`},
	} {
		r, err := Run(context.Background(), tc.q)
		if r != nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a refusal %q", tc.q, err, tc.want)
		}
	}
}
