package jmva

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// Sweep maps a JMVA what-if analysis onto clusterperf's what-if sweep (qn.Sweep), where the
// two mean the same: "Customer Numbers" of one class (absolute populations), "Arrival Rates"
// of one class (absolute rates), "Service Demands" of one class at one station (absolute
// demands, seconds). JMVA's analyses over every class at once scale all classes by a factor
// and "Population Mix" moves jobs between two classes; qn.Sweep has no such parameter, and
// Sweep returns an error wrapping qn.ErrUnsupported for them.
func (w *WhatIf) Sweep(m *qn.Model) (qn.SweepParam, []float64, error) {
	class := -1
	for c, cl := range m.Classes {
		if cl.Name == w.Class {
			class = c
		}
	}
	station := -1
	for k, s := range m.Stations {
		if s.Name == w.Station {
			station = k
		}
	}
	unsupported := func(why string) (qn.SweepParam, []float64, error) {
		return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if %q (class %q, station %q): %s", qn.ErrUnsupported, w.Type, w.Class, w.Station, why)
	}
	if w.Class == "" {
		return unsupported("JMVA scales every class by these factors; clusterperf sweeps one class at a time")
	}
	if class < 0 {
		return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if: unknown class %q", fault.ErrInput, w.Class)
	}
	if len(w.Values) == 0 || len(w.Values) > qn.MaxSweepPoints {
		return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if: %d values (want 1 to %d)", fault.ErrInput, len(w.Values), qn.MaxSweepPoints)
	}
	switch w.Type {
	case "Customer Numbers":
		if m.Classes[class].Open {
			return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if: customer numbers of open class %q", fault.ErrInput, w.Class)
		}
		for _, v := range w.Values {
			if v < 0 || v != math.Trunc(v) {
				return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if: population %v is not a whole number ≥ 0", fault.ErrInput, v)
			}
		}
		return qn.SweepParam{What: "population", Class: class, Label: "population." + w.Class}, w.Values, nil
	case "Arrival Rates":
		if !m.Classes[class].Open {
			return qn.SweepParam{}, nil, fmt.Errorf("%w: JMVA what-if: arrival rates of closed class %q", fault.ErrInput, w.Class)
		}
		return qn.SweepParam{What: "arrival_rate", Class: class, Label: "arrival_rate." + w.Class}, w.Values, nil
	case "Service Demands":
		if station < 0 {
			return unsupported("JMVA scales the demands of every station by these factors")
		}
		return qn.SweepParam{What: "demand", Class: class, Station: station, Label: "demand." + w.Station + "." + w.Class}, w.Values, nil
	}
	return unsupported("no clusterperf sweep varies this")
}
