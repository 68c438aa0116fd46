package explore

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzAPI sends arbitrary requests (method, path, Host, Origin, Content-Type, token or not,
// body) to the explorer of the first two examples: the answer is never a 5xx (but 503 busy)
// or a panic, a refusal never speaks of Go types (json's "Go struct field", "Go value"),
// and a request that fails the Host, origin or token rule is never answered 200 on /api.
func FuzzAPI(f *testing.F) {
	servers := []*Server{NewServer(loadExample(f, examples[0]), "fuzz"), NewServer(loadExample(f, examples[1]), "fuzz")}
	f.Add(uint8(0), "POST", "/api/eval", "127.0.0.1:8080", "", "application/json", true, `{"values":{}}`)
	f.Add(uint8(1), "POST", "/api/save", "evil.example", "http://evil.example", "text/plain", false, `{"values":{}}`)
	f.Add(uint8(0), "GET", "/api/model", "localhost", "", "", true, ``)
	f.Add(uint8(1), "POST", "/api/report", "[::1]:1", "http://[::1]:1", "application/json; charset=utf-8", true, `{"values":{"rate.1":1}}`)
	f.Add(uint8(0), "GET", "/", "127.0.0.1", "", "", false, ``)
	f.Fuzz(func(t *testing.T, which uint8, method, path, host, origin, ctype string, token bool, body string) {
		s := servers[int(which)%len(servers)]
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " ?#%") || strings.ContainsAny(method, " /") || method == "" || strings.ContainsAny(host, " /") ||
			strings.ContainsFunc(path+method+host, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return // not a request line net/http would parse
		}
		if method != "GET" && method != "POST" && method != "HEAD" && method != "PUT" {
			method = "POST"
		}
		r := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		r.Host = host
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		if token {
			r.Header.Set(TokenHeader, s.Token())
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Code >= 500 && rec.Code != 503 {
			t.Fatalf("%s %s Host %q: %d %s", method, path, host, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && (strings.Contains(rec.Body.String(), "Go struct") || strings.Contains(rec.Body.String(), "Go value") || strings.Contains(rec.Body.String(), "explore.Values")) {
			t.Fatalf("%s %s body %q: Go names in the refusal: %s", method, path, body, rec.Body)
		}
		if rec.Code == 200 && strings.HasPrefix(r.URL.Path, "/api/") && (!s.hostAllowed(host) || !token || origin != "" && origin != "http://"+host) {
			t.Fatalf("%s %s Host %q Origin %q token %v: answered 200", method, path, host, origin, token)
		}
	})
}
