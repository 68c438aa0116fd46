package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressTimeLeft: with a fake clock, 10 of 40 units done in 3 s leaves 30 units at the
// mean rate 10/3 per s, so 9 s left (closed form remaining × elapsed/done); updates closer
// than progressInterval are dropped, and the line is cleared at the end.
func TestProgressTimeLeft(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	p := newProgress(&b, "replications", func() time.Time { return now })
	now = now.Add(3 * time.Second)
	p(10, 40)
	if got := b.String(); !strings.Contains(got, "replications 10/40 (25%) 3.0s elapsed, ~9.0s left") {
		t.Fatalf("progress line %q", got)
	}
	b.Reset()
	now = now.Add(progressInterval / 2)
	p(11, 40)
	if b.Len() != 0 {
		t.Errorf("update within %v printed %q", progressInterval, b.String())
	}
	now = now.Add(progressInterval)
	p(12, 40)
	if !strings.Contains(b.String(), "12/40") {
		t.Errorf("update after %v: %q", progressInterval, b.String())
	}
	b.Reset()
	p(40, 40)
	if b.String() != "\r\033[K" {
		t.Errorf("end of progress %q, want the line cleared", b.String())
	}
}

// TestProgressNoRateYet: nothing is shown before progressDelay (a short run prints no
// progress); before the first unit is done there is no rate, so no estimate.
func TestProgressNoRateYet(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	p := newProgress(&b, "sweep", func() time.Time { return now })
	now = now.Add(progressDelay / 2)
	p(0, 5)
	if b.Len() != 0 {
		t.Fatalf("progress within %v of the start: %q", progressDelay, b.String())
	}
	now = now.Add(progressDelay)
	p(0, 5)
	if got := b.String(); strings.Contains(got, "left") || !strings.Contains(got, "sweep 0/5") {
		t.Errorf("progress line %q", got)
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
		if got := fmtDuration(c.d); got != c.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
