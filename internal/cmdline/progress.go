package cmdline

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ProgressInterval is the least time between two progress lines (a few updates a second).
const ProgressInterval = 250 * time.Millisecond

// ProgressDelay is how long a run goes before its first progress line: a run that ends
// sooner prints none (progress is for runs of more than a second or two).
const ProgressDelay = time.Second

// ProgressFunc reports progress on stderr when it is a terminal, nil otherwise (a pipe or a
// file gets no carriage returns). Each update shows done/total, the percentage, the elapsed
// time and an estimate of the time left: remaining × elapsed/done, the mean rate so far.
// Nothing is shown during the first ProgressDelay; then updates are throttled to one per
// ProgressInterval, and the line is cleared when done == total.
func ProgressFunc(enabled bool, label string) func(done, total int) {
	if !enabled {
		return nil
	}
	if !IsTerminal(os.Stderr) {
		return nil
	}
	return NewProgress(os.Stderr, label, time.Now)
}

// ClearProgress clears a progress line a run left on a terminal's stderr when it stopped
// before done == total (Ctrl-C), so the partial result does not follow it on the screen.
func ClearProgress() {
	if IsTerminal(os.Stderr) {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
}

// IsTerminal reports whether w is a terminal (a character device): only there are
// carriage returns and line clearing written.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// NewProgress is ProgressFunc's reporter writing to w with the clock now (a test passes a
// fake clock).
func NewProgress(w io.Writer, label string, now func() time.Time) func(done, total int) {
	start := now()
	var last time.Time
	shown := false
	return func(done, total int) {
		t := now()
		if total <= 0 {
			return
		}
		if done >= total {
			if shown {
				fmt.Fprint(w, "\r\033[K") // clear the line: the result follows
			}
			return
		}
		if t.Sub(start) < ProgressDelay || t.Sub(last) < ProgressInterval {
			return
		}
		last, shown = t, true
		elapsed := t.Sub(start)
		fmt.Fprintf(w, "\r\033[K%s %d/%d (%.0f%%) %s elapsed%s", label, done, total,
			100*float64(done)/float64(total), FormatDuration(elapsed), timeLeft(elapsed, done, total))
	}
}

// timeLeft is ", ~D left" with D = elapsed × (total − done)/done, or "" before the first
// unit of work is done (no rate to extrapolate from).
func timeLeft(elapsed time.Duration, done, total int) string {
	if done <= 0 || elapsed <= 0 {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return ", ~" + FormatDuration(left) + " left"
}

// FormatDuration prints d for people: "4.2s", "3m07s", "2h05m".
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		m := int(d / time.Minute)
		return fmt.Sprintf("%dm%02ds", m, int((d-time.Duration(m)*time.Minute)/time.Second))
	default:
		h := int(d / time.Hour)
		return fmt.Sprintf("%dh%02dm", h, int((d-time.Duration(h)*time.Hour)/time.Minute))
	}
}
