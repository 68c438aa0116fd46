package pipelineapp

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequestFigure: examples/pipeline/sort.yaml with its measured runs (sort.csv)
// at --p 1:8 gives 8 sizes; the figure's regime lines cover every p once (each later line
// repeating the previous one's last point, so Σ points = 8 + lines − 1), and its measured
// series has one point per row of the CSV. --fit without --measured and --p 0 are refused
// before any file is read.
func TestFlagsRequestFigure(t *testing.T) {
	sz := app.DefaultSizingFlags()
	o := Flags{P: "1:8", Measured: "../../examples/pipeline/sort.csv", Sizing: sz}
	q, err := o.Request(new(app.FlagCheck), os.ReadFile, "../../examples/pipeline/sort.yaml")
	if err != nil || len(q.P) != 8 || len(q.Measured) == 0 {
		t.Fatalf("%+v, %v", q, err)
	}
	r, err := Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	panels, err := r.Figure()
	if err != nil || len(panels) != 1 {
		t.Fatalf("%v, %v", panels, err)
	}
	lines, pts := 0, 0
	for _, s := range panels[0].Series {
		switch {
		case s.Name == "measured":
			if len(s.X) != len(q.Measured) {
				t.Errorf("measured series has %d points, the CSV %d", len(s.X), len(q.Measured))
			}
		case !s.Points:
			lines++
			pts += len(s.X)
		}
	}
	if lines == 0 || pts != 8+lines-1 {
		t.Errorf("%d regime lines with %d points, want 8 + lines − 1", lines, pts)
	}
	read := func(path string) ([]byte, error) {
		t.Errorf("read %s before the options were checked", path)
		return nil, nil
	}
	var c app.FlagCheck
	if _, err := (Flags{P: "0", Fit: "c_m", Sizing: sz}).Request(&c, read, "m.yaml"); !errors.Is(err, fault.ErrInput) || len(c.Errs) != 2 {
		t.Errorf("got %v (%d problems), want 2 as bad input", err, len(c.Errs))
	}
}
