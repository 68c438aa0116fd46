// Package browsertest starts headless Chromium for the browser tests of htmlreport and explore
// (chromedp), collects console errors and uncaught exceptions, and skips — or, with
// CLUSTERPERF_REQUIRE_BROWSER=1 as in CI (.ci/run), fails — when no browser is installed.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Find returns the Chromium binary: $CLUSTERPERF_CHROMIUM, else chromium or chromium-browser on
// PATH; "" when there is none.
func Find() string {
	if p := os.Getenv("CLUSTERPERF_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is one headless Chromium with one tab, and the errors its pages reported.
type Browser struct {
	Ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// New starts Chromium (headless, no sandbox as root, no GPU, no background networking, a fresh
// profile) or skips the test with a clear message; it is stopped when the test ends.
func New(t testing.TB) *Browser {
	t.Helper()
	bin := Find()
	if bin == "" {
		msg := "no Chromium found (chromium, chromium-browser or $CLUSTERPERF_CHROMIUM): install it with scripts/chromium-install.sh to run the browser tests"
		if os.Getenv("CLUSTERPERF_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg + " (CLUSTERPERF_REQUIRE_BROWSER=1: required)")
		}
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	// the browser lives as long as the test may (a loaded machine stretches a test of ten
	// examples past the two minutes this was once), at most 10 minutes without a -timeout
	limit := time.Now().Add(10 * time.Minute)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok && dl.Before(limit) {
			limit = dl
		}
	}
	ctx, cancelT := context.WithDeadline(ctx, limit)
	b := &Browser{Ctx: ctx}
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	// Console subscribes now; the goroutine collects errors, exceptions and error log
	// entries until the test's context ends.
	msgs := chromedp.Console(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.add(m.String() + " " + m.URL)
			}
		}
	}()
	return b
}

func (b *Browser) add(s string) {
	b.mu.Lock()
	b.errors = append(b.errors, s)
	b.mu.Unlock()
}

// Errors returns the console errors, exceptions and error log entries seen so far.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// Do runs actions in the tab.
func (b *Browser) Do(actions ...chromedp.Action[chromedp.Void]) error {
	return chromedp.Do(b.Ctx, actions...)
}

// Eval evaluates a JavaScript expression in the page and decodes its value.
func Eval[T any](b *Browser, expr string) (T, error) {
	return chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
}

// NoErrors fails the test when a page reported an error.
func (b *Browser) NoErrors(t testing.TB, where string) {
	t.Helper()
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("%s: %d browser error(s):\n%s", where, len(errs), strings.Join(errs, "\n"))
	}
}

// Sizes returns the rendered width and height of every element matching the CSS selector.
func (b *Browser) Sizes(sel string) ([][2]float64, error) {
	return Eval[[][2]float64](b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })`, sel))
}
