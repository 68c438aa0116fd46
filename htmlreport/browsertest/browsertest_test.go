package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The error collection works: a page that throws and calls console.error is reported (so
// that NoErrors in the other tests can fail).
func TestCatchesErrors(t *testing.T) {
	b := New(t)
	if err := b.Do(chromedp.Navigate(`data:text/html,<p>x</p><script>console.error("bad thing");throw new Error("boom")</script>`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second) // the loop ends as soon as both arrive; Chromium is slow when the machine is loaded
	for time.Now().Before(deadline) && len(b.Errors()) < 2 {
		time.Sleep(20 * time.Millisecond)
	}
	all := strings.Join(b.Errors(), "\n")
	if !strings.Contains(all, "bad thing") || !strings.Contains(all, "boom") {
		t.Fatalf("errors seen: %q", all)
	}
}
