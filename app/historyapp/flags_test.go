package historyapp

import (
	"errors"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequest: both time layouts are read (UTC), --predict 128:1024:x2 is 128, 256,
// 512, 1024; a --since not before --until, an unknown scaling, a negative study and pmax are
// each named, all at once.
func TestFlagsRequest(t *testing.T) {
	sz := app.DefaultSizingFlags()
	var c app.FlagCheck
	q, err := Flags{Since: "2026-01-02", Until: "2026-01-02T12:00:00", Predict: "128:1024:x2", Sizing: sz}.Request(&c, "sacct.txt")
	if err != nil || !q.Filter.Since.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) || q.Filter.Until.Hour() != 12 || len(q.Options.Predict) != 4 || q.File != "sacct.txt" {
		t.Fatalf("%+v, %v", q, err)
	}
	var b app.FlagCheck
	_, err = Flags{Since: "2026-02-01", Until: "2026-01-01", Scaling: "linear", Study: -1, PMax: -1, Sizing: sz}.Request(&b, "")
	if !errors.Is(err, fault.ErrInput) || len(b.Errs) != 4 {
		t.Errorf("got %v (%d problems), want 4 as bad input", err, len(b.Errs))
	}
}
