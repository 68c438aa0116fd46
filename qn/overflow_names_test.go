package qn

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Review P3: --sweep demand.cpu=0:1e308:1000 (now written 0:1e308:n1000) said "demand +Inf must be finite": FROM +
// (TO − FROM)·i/(POINTS − 1) overflowed in (TO − FROM)·i. The values must be finite, end at
// TO exactly, and equal the old formula wherever it did not overflow (so other sweeps keep
// their values bit for bit).
func TestParseRangeNearMaxFloat(t *testing.T) {
	vals, err := parseRange("0:1e308:n1000", false, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 1000 || vals[999] != 1e308 || vals[0] != 0 {
		t.Fatalf("%d values, first %v last %v; want 1000 from 0 to 1e308", len(vals), vals[0], vals[len(vals)-1])
	}
	for i, v := range vals {
		if math.IsInf(v, 0) || (i > 0 && !(v > vals[i-1])) {
			t.Fatalf("value %d = %v: not finite and increasing", i, v)
		}
	}
	small, err := parseRange("0.01:0.2:n20", false, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range small {
		if want := 0.01 + (0.2-0.01)*float64(i)/19; v != want {
			t.Errorf("value %d = %v, want %v (unchanged formula)", i, v, want)
		}
	}
}

// Review P3: a result outside the float64 range (load-dependent rates 1e308 with demand
// 1e-300: X ≈ 3e608 per s) was refused as "class 0: throughput …", naming neither the class
// nor a station. It is still refused (fault.ErrInput), now by name.
func TestOverflowNamesClassAndStation(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "batch", Population: 3}},
		Stations: []Station{{Name: "array", Kind: LoadDependent, Rates: []float64{1e308, 1e308}}},
		Demand:   [][]float64{{1e-300}},
	}
	_, err := Solve(m, "auto", AMVAOptions{})
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `class "batch"`) || !strings.Contains(err.Error(), `station "array"`) {
		t.Fatalf("err = %v, want fault.ErrInput naming class \"batch\" and station \"array\"", err)
	}
}
