package htmlreport

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNewRun: the command line quotes what a shell would split or expand, shows switches
// without a value, reads the argument and text flag values that are existing files as
// inputs (not --plot's), and titles the page with the inputs' names.
func TestNewRun(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.yaml")
	meas := filepath.Join(dir, "my runs.csv")
	for _, f := range []string{model, meas, filepath.Join(dir, "p.svg")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRun("clusterperf solve", []Flag{{Name: "all", Value: "true", Bool: true}, {Name: "measured", Value: meas, String: true},
		{Name: "plot", Value: filepath.Join(dir, "p.svg"), String: true}, {Name: "tol", Value: "1e-08"}}, []string{model})
	want := "clusterperf solve --all --measured '" + meas + "' --plot " + filepath.Join(dir, "p.svg") + " --tol 1e-08 " + model
	if r.CommandLine != want {
		t.Errorf("command line %q, want %q", r.CommandLine, want)
	}
	if len(r.Inputs) != 2 || r.Title != "clusterperf solve: my runs.csv, m.yaml" {
		t.Errorf("inputs %d, title %q", len(r.Inputs), r.Title)
	}
	if q := shellQuote("it's"); q != `'it'\''s'` {
		t.Errorf("shellQuote = %s", q)
	}
	if r := NewRun("clusterperf queue", nil, []string{"M/M/1"}); r.Title != "clusterperf queue M/M/1" || len(r.Inputs) != 0 {
		t.Errorf("no inputs: %+v", r)
	}
}
