package cmdline

import (
	"strings"
	"testing"
	"time"
)

// TestProgressTimeLeft: with a fake clock, 10 of 40 units done in 3 s leaves 30 units at the
// mean rate 10/3 per s, so 9 s left (closed form remaining × elapsed/done); updates closer
// than ProgressInterval are dropped, and the line is cleared at the end.
func TestProgressTimeLeft(t *testing.T) {
	after := progressClock("replications")
	if got := after(3*time.Second, 10, 40); !strings.Contains(got, "replications 10/40 (25%) 3.0s elapsed, ~9.0s left") {
		t.Fatalf("progress line %q", got)
	}
	if got := after(ProgressInterval/2, 11, 40); got != "" {
		t.Errorf("update within %v printed %q", ProgressInterval, got)
	}
	if got := after(ProgressInterval, 12, 40); !strings.Contains(got, "12/40") {
		t.Errorf("update after %v: %q", ProgressInterval, got)
	}
	if got := after(0, 40, 40); got != "\r\033[K" {
		t.Errorf("end of progress %q, want the line cleared", got)
	}
}

// TestProgressNoRateYet: nothing is shown before ProgressDelay (a short run prints no
// progress); before the first unit is done there is no rate, so no estimate.
func TestProgressNoRateYet(t *testing.T) {
	after := progressClock("sweep")
	if got := after(ProgressDelay/2, 0, 5); got != "" {
		t.Fatalf("progress within %v of the start: %q", ProgressDelay, got)
	}
	if got := after(ProgressDelay, 0, 5); strings.Contains(got, "left") || !strings.Contains(got, "sweep 0/5") {
		t.Errorf("progress line %q", got)
	}
}

// progressClock is a progress reporter on a fake clock starting at 0: after(d, done, total)
// moves the clock on by d, reports done of total and returns what that call printed.
func progressClock(label string) func(d time.Duration, done, total int) string {
	var b strings.Builder
	now := time.Unix(0, 0)
	p := NewProgress(&b, label, func() time.Time { return now })
	return func(d time.Duration, done, total int) string {
		b.Reset()
		now = now.Add(d)
		p(done, total)
		return b.String()
	}
}

func TestFmtDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{4200 * time.Millisecond, "4.2s"},
		{187 * time.Second, "3m07s"},
		{2*time.Hour + 5*time.Minute + 30*time.Second, "2h05m"},
	} {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
