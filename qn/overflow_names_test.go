package qn

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Review P3: a result outside the float64 range (load-dependent rates 1e308 with demand
// 1e-300: X ≈ 3e608 per s) was refused as "class 0: throughput …", naming neither the class
// nor a station. It is still refused (fault.ErrInput), now by name.
func TestOverflowNamesClassAndStation(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "batch", Population: 3}},
		Stations: []Station{{Name: "array", Kind: LoadDependent, Rates: []float64{1e308, 1e308}}},
		Demand:   [][]float64{{1e-300}},
	}
	_, err := Solve(context.Background(), m, "auto", AMVAOptions{})
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `class "batch"`) || !strings.Contains(err.Error(), `station "array"`) {
		t.Fatalf("err = %v, want fault.ErrInput naming class \"batch\" and station \"array\"", err)
	}
}
