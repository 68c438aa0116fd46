package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/spmd"
)

// runOut runs clusterperf with args and returns stdout (failing the test on a non-zero exit).
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := runOK(t, args...)
	return out
}

// runJSON runs clusterperf with args (JSON output), decodes stdout into v and returns
// stderr, failing the test on a non-zero exit or output that does not decode.
func runJSON(t *testing.T, v any, args ...string) string {
	t.Helper()
	out, stderr := runOK(t, args...)
	decodeJSON(t, []byte(out), v)
	return stderr
}

// runOK runs clusterperf with args and returns stdout and stderr, failing the test on a
// non-zero exit.
func runOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("clusterperf %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), errb.String()
}

// TestSpeedupLargeGridSummary: issue 21 — the README tour's 64 × 256 hybrid grid prints a
// summary by default (not 16 000+ lines), every point with --all, and every point in CSV.
func TestSpeedupLargeGridSummary(t *testing.T) {
	const model = "../../examples/spmd/hybrid.yaml"
	txt := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:256")
	if n := strings.Count(txt, "\n"); n > 60 {
		t.Errorf("default table has %d lines, want a summary (≤ 60)", n)
	}
	if !strings.Contains(txt, "--all") {
		t.Errorf("the summary does not say --all shows the grid:\n%s", txt)
	}
	all := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:4", "--all")
	if n := strings.Count(all, "\n"); n < 256 {
		t.Errorf("--all prints %d lines, want every one of the 256 points", n)
	}
	csv := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:4", "--format", "csv")
	if n := strings.Count(csv, "\n"); n != 257 {
		t.Errorf("CSV has %d lines, want header + 256 points", n)
	}
}

// TestSpeedupContractKeys: issue 21 / output contract — times carry their unit in the key,
// the limits name the (p, d) they hold at (no internal evaluated_at), ∞ is a text-table
// cell only (empty in CSV), --p takes lists, and sizing replaces the per-d rows.
func TestSpeedupContractKeys(t *testing.T) {
	const model = "../../examples/spmd/hybrid.yaml"
	js := runOut(t, "speedup", model, "--p", "1,2,4,8", "--d", "1:4", "--format", "json")
	for _, k := range []string{`"time_s"`, `"cpu_s"`, `"io_s"`, `"comm_startup_s"`, `"sizing"`, `"recommended"`} {
		if !strings.Contains(js, k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	for _, k := range []string{`"time":`, `"cpu":`, `"io":`, `"evaluated_at"`, `"largest_efficient_p"`, `"p": 3`} {
		if strings.Contains(js, k) {
			t.Errorf("JSON has %s", k)
		}
	}
	csv := runOut(t, "speedup", model, "--p", "1:8", "--d", "1:4", "--format", "csv", "--csv-table", "summary")
	if strings.Contains(csv, ",∞,") || !strings.Contains(csv, "p → ∞,,4,,") {
		t.Errorf("CSV summary: want empty cells for ∞ and d = 4 (the largest d) in the p → ∞ row:\n%s", csv)
	}
	txt := runOut(t, "speedup", model, "--p", "1:8", "--d", "1:4")
	if !strings.Contains(txt, "efficiency = speedup/p counts processors only") || strings.Contains(txt, "largest p with efficiency") {
		t.Errorf("text: want the efficiency note and no per-d efficiency rows:\n%s", txt)
	}
}

// TestHelpCitesAuthors: issue 21 — help texts cite the documents by author, "Elliott (004)",
// never a bare number (the numbers mean nothing without `clusterperf help references`).
func TestHelpCitesAuthors(t *testing.T) {
	bare := regexp.MustCompile(`(^|[^(/.\w])00[0-4]\b`)
	for _, cmd := range []string{"speedup", "fit", "mpip"} {
		out := runOut(t, "help", cmd)
		for _, line := range strings.Split(out, "\n") {
			if bare.MatchString(line) {
				t.Errorf("help %s cites a document by number only: %q", cmd, line)
			}
		}
	}
}

// TestSpeedupInterrupted: a surface cancelled mid-way (Ctrl-C cancels the root context)
// prints the points of the values of p finished, marked partial with a note, and exits 130.
// 5000 × 20 points of argos (2.5e8 MVA steps) take many seconds here; the context ends after 0.5 s.
func TestSpeedupInterrupted(t *testing.T) {
	out, _ := runInterrupted(t, 500*time.Millisecond, "speedup", ex+"spmd/argos.yaml", "--p", "1:5000", "--d", "1:20", "--format", "json")
	var v struct {
		Partial bool       `json:"partial"`
		Points  []struct{} `json:"points"`
		Notes   []string   `json:"notes"`
		Method  string     `json:"method"`
		Exact   bool       `json:"exact"`
	}
	decodeJSON(t, out, &v)
	if !v.Partial || len(v.Points) == 0 || len(v.Points)%20 != 0 || len(v.Points) >= 100000 || !strings.HasPrefix(v.Notes[len(v.Notes)-1], "partial: interrupted after") {
		t.Errorf("partial %v, %d points (want whole rows of 20), notes %q", v.Partial, len(v.Points), v.Notes)
	}
	if !v.Exact || !strings.Contains(v.Method, "exact MVA") {
		t.Errorf("argos (bus-aio): method %q exact %v, want exact MVA", v.Method, v.Exact)
	}
}

// TestSpeedupMethod: every architecture states its method; the SIO ones (000 eq. 16) are
// approximate with the measured error estimate, the others exact for their model.
func TestSpeedupMethod(t *testing.T) {
	for _, tc := range []struct {
		file  string
		exact bool
	}{{"btio.yaml", false}, {"hybrid.yaml", false}, {"argos.yaml", true}, {"fig59-clu.yaml", true}, {"optimistic-aio.yaml", true}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"speedup", ex + "spmd/" + tc.file, "--p", "4:8", "--d", "4", "--format", "json"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.file, code, errb.String())
		}
		var v struct {
			Method   string              `json:"method"`
			Exact    *bool               `json:"exact"`
			Estimate *spmd.ErrorEstimate `json:"error_estimate"`
		}
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Method == "" || v.Exact == nil || *v.Exact != tc.exact || (v.Estimate != nil) == tc.exact {
			t.Errorf("%s: method %q exact %v estimate %v; want exact %v with an estimate iff approximate", tc.file, v.Method, v.Exact, v.Estimate, tc.exact)
		}
	}
}

// TestSpeedupMeasured: --measured puts each run beside the model at its (p, d): the CSV
// table "measured" has rel_error = (model − measured)/measured as a signed fraction (model
// time from the points table of the same run), a run outside --p is still compared and
// flagged, and a bad row is refused naming the file and line.
func TestSpeedupMeasured(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(csv, []byte("p,time\n1,36.5\n4,21s\n32,9000ms\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Points []struct {
			P     int     `json:"p"`
			TimeS float64 `json:"time_s"`
		} `json:"points"`
		Measured []spmd.Comparison `json:"measured"`
	}
	out := runOut(t, "speedup", ex+"spmd/btio.yaml", "--p", "1:16", "--measured", csv, "--format", "json")
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Measured) != 3 {
		t.Fatalf("%d measured rows, want 3", len(v.Measured))
	}
	for _, c := range v.Measured[:2] {
		model := v.Points[c.P-1].TimeS
		if want := (model - c.MeasuredTime) / c.MeasuredTime; c.ModelTime != model || math.Abs(c.RelError-want) > 1e-12 || c.OutsideSurface {
			t.Errorf("p = %d: %+v, want model %v rel_error %v", c.P, c, model, want)
		}
	}
	if c := v.Measured[2]; c.MeasuredTime != 9 || !c.OutsideSurface {
		t.Errorf("p = 32 (outside 1:16, 9000ms): %+v", c)
	}
	table := runOut(t, "speedup", ex+"spmd/btio.yaml", "--p", "1:16", "--measured", csv, "--format", "csv", "--csv-table", "measured")
	if !strings.HasPrefix(table, "p,d,measured_s,model_s,measured_speedup,model_speedup,rel_error,note\n1,1,36.5,") {
		t.Errorf("measured CSV table:\n%s", table)
	}
	if err := os.WriteFile(csv, []byte("p,time\n1,36.5\n4,-2\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"speedup", ex + "spmd/btio.yaml", "--measured", csv}, &o, &e); code != 2 || !strings.Contains(e.String(), "m.csv:3") {
		t.Errorf("bad row: exit %d, stderr %q; want 2 naming m.csv:3", code, e.String())
	}
}

// TestAllWithoutGrid: --all is refused on solve without --sweep (exit 2, naming the flag)
// and noted on speedup when the table would not be condensed anyway (issue 21's review:
// it was accepted silently).
func TestAllWithoutGrid(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"solve", ex + "qn/central-server.yaml", "--all"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--all needs --sweep") {
		t.Errorf("solve --all: exit %d, stderr %q; want 2 saying --all needs --sweep", code, errb.String())
	}
	if got := runOut(t, "speedup", ex+"spmd/btio.yaml", "--p", "1:4", "--all"); !strings.Contains(got, "--all changes nothing here") {
		t.Errorf("speedup --all on 4 points: no note\n%s", got)
	}
}

// TestSpeedupPointsStreamed: the points table of every point (CSV, --all, a grid not
// condensed) is a streamed table (report.Table.Stream: rows produced as they are written,
// never held as text), the condensed one a built table; the CSV has one row per point.
func TestSpeedupPointsStreamed(t *testing.T) {
	csv := runOut(t, "speedup", "--p", "1:40", "--d", "1:6", "--format", "csv", ex+"spmd/hybrid.yaml")
	if n := strings.Count(csv, "\n"); n != 1+40*6 {
		t.Errorf("CSV: %d lines, want a header and 240 points", n)
	}
	for _, tc := range []struct {
		format    string
		all, want bool
	}{{"csv", false, true}, {"table", true, true}, {"table", false, false}} {
		var o speedupOptions
		args := []string{"--p", "1:40", "--d", "1:6", "--format", tc.format} // 240 points: condensed beyond 200
		if tc.all {
			args = append(args, "--all")
		}
		if err := speedupCmd(&o, io.Discard, io.Discard).ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		sp, err := prepareSpeedup(context.Background(), o, ex+"spmd/hybrid.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.Out.Tables()[0].Stream != nil; got != tc.want {
			t.Errorf("%s all=%v: streamed %v, want %v", tc.format, tc.all, got, tc.want)
		}
	}
}
