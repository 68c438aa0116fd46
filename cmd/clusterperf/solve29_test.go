package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJMVAWhatIfPlotAndExportNote (issue 29): a .jmva file's what-if analysis runs as a
// sweep, so --plot draws it (it was refused: "--plot needs --sweep"); --export-jmva of a
// model with a think time says that JMVA gets a delay station and its R then includes Z
// (central-server.yaml: interactive, Z = 4 s); one model with --plot is still refused.
func TestJMVAWhatIfPlotAndExportNote(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "w.svg")
	runOut(t, "solve", ex+"jmt/jmt-whatif.jmva", "--plot", svg)
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("what-if --plot: %v", err)
	}
	for _, args := range [][]string{
		{"solve", ex + "qn/central-server.yaml", "--export-jmva", filepath.Join(dir, "a.jmva")},
		{"solve", ex + "qn/central-server.yaml", "--sweep", "population=1:5", "--export-jmva", filepath.Join(dir, "b.jmva")},
	} {
		out := runOut(t, args...)
		if !strings.Contains(out, `the think time of interactive (Z = 4 s) is written as a delay station "think"`) || !strings.Contains(out, "(R + Z)") {
			t.Errorf("%v: no export note:\n%s", args, out)
		}
	}
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"solve", ex + "jmt/central.jmva", "--plot", svg}, &o, &e); code != 2 || !strings.Contains(e.String(), "--plot needs --sweep, or a .jmva file with a what-if") {
		t.Errorf("one model --plot: exit %d %q", code, e.String())
	}
}

// TestOpenSaturationNamesCapacity (issue 29): an open model beyond saturation exits 3 naming
// the capacity. Provenance: λ = 50 jobs/s, D_cpu = 0.03 s: U = 1.5, capacity 1/D = 50/1.5 =
// 33.33 jobs/s.
func TestOpenSaturationNamesCapacity(t *testing.T) {
	f := filepath.Join(t.TempDir(), "open.yaml")
	model := "name: open-sat\nclasses:\n  - {name: web, arrival_rate: 50}\nstations:\n  - {name: cpu, type: queue, demand: 0.03}\n  - {name: disk, type: queue, demand: 0.01}\n"
	if err := os.WriteFile(f, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"solve", f}, &o, &e); code != 3 || !strings.Contains(e.String(), "open arrivals 50 jobs/s exceed its capacity of 33.33 jobs/s") {
		t.Errorf("exit %d %q", code, e.String())
	}
}

// TestSweepSaturationWording (issue 29's review): the sweep's ≥ 90 % utilization point and
// N* read as one saturation seen two ways, not two saturation points.
func TestSweepSaturationWording(t *testing.T) {
	out := runOut(t, "solve", ex+"jmt/ld.jmva")
	first := strings.SplitN(out, "\n", 2)[0]
	if strings.Contains(first, "saturated from") || !strings.Contains(first, "bounds' knee N* = ") {
		t.Errorf("first line %q", first)
	}
}
