package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// classWords are what fault's sentinels put in front of a wrapped message: an error's
// class, which exit codes carry, never a note's words.
var classWords = []string{"invalid input: ", "input too large: ", "model finding: ", "not converged: ", "no steady state: ", "deadlock: ", "interrupted: "}

// checkSentences fails when a note (or skipped-model reason) leaks an error class word or
// spans lines.
func checkSentences(t *testing.T, what string, notes []string) {
	t.Helper()
	for _, n := range notes {
		for _, w := range classWords {
			if strings.Contains(n, w) {
				t.Errorf("%s: note leaks %q: %s", what, w, n)
			}
		}
		if strings.Contains(n, "\n") {
			t.Errorf("%s: note spans lines: %q", what, n)
		}
	}
}

// TestNotesReadAsSentences: notes made from errors said "no backtest: invalid input:
// two.csv: 2 distinct p…" (fit DATA.csv with two values of p), and a model fit could not
// take was listed as "clu-aio: invalid input: fit: clu-aio cannot describe …\nline 4: …"
// (fit with architecture auto, data with p < d). Notes and skipped reasons now read as
// sentences: no error-class words, one line each.
func TestNotesReadAsSentences(t *testing.T) {
	write := tempWriter(t, t.TempDir())
	two := write("two.csv", "p,time\n1,10\n2,5.5\n")
	var ex struct {
		Notes []string `json:"notes"`
	}
	runJSON(t, &ex, "fit", two, "--format", "json")
	if !strings.Contains(strings.Join(ex.Notes, "|"), "no backtest: "+two+": 2 distinct p") {
		t.Errorf("fit two.csv: notes %q lack the backtest's reason", ex.Notes)
	}
	checkSentences(t, "fit two.csv", ex.Notes)

	model, err := os.ReadFile(filepath.Join("..", "..", "examples", "fit", "qcrd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	auto := write("auto.yaml", strings.Replace(string(model), "architecture: bus-aio", "architecture: auto", 1))
	data := write("pd.csv", "p,d,speedup\n1,1,1\n2,4,1.5\n4,8,2.5\n8,8,4\n16,4,6\n32,2,8\n2,2,1.4\n8,1,4.1\n16,16,6.2\n")
	var fr struct {
		Skipped []string `json:"skipped"`
		Notes   []string `json:"notes"`
	}
	runJSON(t, &fr, "fit", auto, data, "--format", "json")
	if len(fr.Skipped) != 1 || !strings.HasPrefix(fr.Skipped[0], "clu-aio cannot describe every measured configuration: line 3: p = 2, d = 4:") || !strings.Contains(fr.Skipped[0], "; line 4: p = 4, d = 8:") {
		t.Errorf("fit with p < d: skipped %q", fr.Skipped)
	}
	checkSentences(t, "fit skipped", fr.Skipped)
	checkSentences(t, "fit notes", fr.Notes)
}

// TestGoldenNotesReadAsSentences: no command's golden output (every command × example ×
// format, TestContract) carries an error-class word in its text.
func TestGoldenNotesReadAsSentences(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range classWords {
			if strings.Contains(string(data), w) {
				t.Errorf("%s contains %q", f, w)
			}
		}
	}
}
