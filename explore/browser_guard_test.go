package explore

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clusterperf/clusterperf/htmlreport/browsertest"
)

// countingModel counts the evaluations and model files the server computed.
type countingModel struct {
	Model
	evals, files atomic.Int32
}

func (m *countingModel) Eval(v Values) (*Result, error) {
	m.evals.Add(1)
	return m.Model.Eval(v)
}

func (m *countingModel) File(v Values) ([]byte, string, error) {
	m.files.Add(1)
	return m.Model.File(v)
}

// attackerPage is a page of another origin that tries to read the explorer's model, to
// make it compute (a no-cors text/plain POST and a form POST: neither needs a CORS
// preflight) and to read its page (the token) and frame it. window.result collects what
// it could read.
const attackerPage = `<!DOCTYPE html><html><body>
<form id="f" method="POST" enctype="text/plain" target="sink" action="%[1]sapi/save"><input name='{"values":{},"x":"' value='"}'></form>
<iframe name="sink"></iframe><iframe id="frame" src="%[1]s"></iframe>
<script>
window.result = {done: false, read: []};
(async () => {
  const target = %[1]q;
  const tryRead = async (what, p) => { try { const r = await p; const t = await r.text(); window.result.read.push(what + ": " + r.status + " " + t.slice(0, 80)); } catch (e) { } };
  await tryRead("GET api/model", fetch(target + "api/model"));
  await tryRead("GET page", fetch(target));
  await tryRead("POST api/eval json", fetch(target + "api/eval", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"values":{}}'}));
  await tryRead("POST api/eval token", fetch(target + "api/eval", {method: "POST", headers: {"X-Clusterperf-Token": "guess"}, body: '{"values":{}}'}));
  for (const p of ["api/eval", "api/report", "api/save"]) {
    try { await fetch(target + p, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: '{"values":{}}'}); } catch (e) { }
  }
  document.getElementById("f").submit();
  await new Promise((r) => setTimeout(r, 500));
  try { window.result.read.push("frame: " + document.getElementById("frame").contentDocument.body.innerHTML.slice(0, 80)); } catch (e) { }
  window.result.done = true;
})();
</script></body></html>`

// A page from another origin cannot read or drive the explorer's API (issue 32), in
// Chromium: before the fix its no-cors text/plain POSTs and a form POST reached the
// evaluation (the server answered 200 to any Origin); now the server computes nothing for
// it, and the page reads nothing (CORS hides the answers, the explorer cannot be framed).
// The explorer's own page, served from the same server, still evaluates (it carries the
// token).
func TestCrossOriginPageInBrowser(t *testing.T) {
	b := browsertest.New(t)
	m := &countingModel{Model: loadExample(t, examples[0])}
	s := NewServer(m, "test")
	target := "http://" + listen(t, s) + "/"
	ln, err := net.Listen("tcp", "127.0.0.1:0") // another port: another origin
	if err != nil {
		t.Fatal(err)
	}
	evil := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, attackerPage, target)
	})}
	go evil.Serve(ln)
	t.Cleanup(func() { evil.Close() })
	t.Cleanup(func() { b.Do(chromedp.Navigate("about:blank")) })
	if err := b.Do(chromedp.Navigate("http://" + ln.Addr().String() + "/")); err != nil {
		t.Fatal(err)
	}
	type result struct {
		Done bool     `json:"done"`
		Read []string `json:"read"`
	}
	var r result
	for deadline := time.Now().Add(20 * time.Second); !r.Done && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		r, _ = browsertest.Eval[result](b, `window.result || {}`)
	}
	if !r.Done {
		t.Fatal("the attacker page did not finish")
	}
	if len(r.Read) > 0 {
		t.Errorf("the other origin read the explorer's answers: %q", r.Read)
	}
	if e, f := m.evals.Load(), m.files.Load(); e != 0 || f != 0 {
		t.Errorf("the other origin made the explorer compute: %d evaluations, %d model files", e, f)
	}
	// the explorer's own page works in the same browser
	if err := b.Do(chromedp.Navigate(target)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); m.evals.Load() == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
	}
	if msg, _ := browsertest.Eval[string](b, `window.cpExplore.error`); m.evals.Load() == 0 || msg != "" {
		t.Errorf("the explorer's own page: %d evaluations, error %q", m.evals.Load(), msg)
	}
	for _, e := range b.Errors() {
		if !strings.Contains(e, "CORS") && !strings.Contains(e, "Failed to fetch") && !strings.Contains(e, "403") && !strings.Contains(e, "refused") && !strings.Contains(e, "frame") {
			t.Logf("console: %s", e)
		}
	}
}
