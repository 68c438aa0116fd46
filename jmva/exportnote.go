package jmva

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/qn"
)

// ExportNotes says how Write expresses m differently from clusterperf, so that a reader who
// re-solves the exported file (path) is not surprised (issue 29: R went from 0.22 s to
// 5.22 s after an export, with no word): a closed class's think time Z becomes a delay
// station (JMVA has no think time), so JMVA's response time R of that class includes Z —
// R_JMVA = R + Z — while throughput and utilizations are unchanged; a group of copies
// becomes that many stations "name#i". None when m is written as it is.
func ExportNotes(path string, m *qn.Model) []string {
	var notes, classes []string
	for _, c := range m.Classes {
		if !c.Open && c.ThinkTime > 0 {
			classes = append(classes, fmt.Sprintf("%s (Z = %.4g s)", c.Name, c.ThinkTime))
		}
	}
	if len(classes) > 0 {
		notes = append(notes, fmt.Sprintf("--export-jmva %s: the think time of %s is written as a delay station %q (JMVA has no think time): re-solved there, the class's response time includes it (R + Z); throughput and utilizations are the same",
			path, strings.Join(classes, ", "), thinkStationName(m)))
	}
	var groups []string
	for _, st := range m.Stations {
		if st.Copies() > 1 {
			groups = append(groups, fmt.Sprintf("%s (%d copies)", st.Name, st.Copies()))
		}
	}
	if len(groups) > 0 {
		notes = append(notes, fmt.Sprintf("--export-jmva %s: %s written as separate stations name#1, name#2, …", path, strings.Join(groups, ", ")))
	}
	return notes
}
