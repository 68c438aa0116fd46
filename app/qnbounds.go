package app

import (
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

// BoundsHeader returns (a fresh slice of) the header of a bounds table after any leading
// columns; callers may append to it.
func BoundsHeader() []string {
	return []string{"bound", "class", "throughput_lower_per_s", "throughput_upper_per_s", "response_time_lower_s", "response_time_upper_s", "method"}
}

// BoundRow is one qn.Bound's cells under BoundsHeader (an upper response-time bound that
// does not exist is an empty cell).
func BoundRow(b qn.Bound) []any {
	return []any{b.Name, b.Class, b.ThroughputLower, b.ThroughputUpper, b.ResponseTimeLower, optCell(b.ResponseTimeUpper), b.Method}
}

// BoundsTable is the "bounds" table: a row per bound and class, labelled by the bound's name.
func BoundsTable(bs []qn.Bound) *report.Table {
	t := &report.Table{Name: "bounds", Title: "Bounds (each brackets the exact answer)", Header: BoundsHeader(), Keys: 2}
	for _, b := range bs {
		t.Add(BoundRow(b)...)
	}
	return t
}
