package explore

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzEval posts arbitrary bodies to /api/eval of every example: the answer is 200 or 400
// (bad values, a saturated or deadlocked point), never a 500 or a panic.
func FuzzEval(f *testing.F) {
	var servers []*Server
	for _, ex := range examples {
		servers = append(servers, NewServer(loadExample(f, ex), "fuzz"))
	}
	f.Add(uint8(0), `{"values":{"pop.0":8}}`)
	f.Add(uint8(1), `{"values":{"rate.1":16.6,"demand.0.0":0}}`)
	f.Add(uint8(2), `{"values":{"p":1024,"d":256,"p_max":1024,"d_max":256}}`)
	f.Add(uint8(3), `{"values":{"s_par.0":0,"sr_io.0":0}}`)
	f.Add(uint8(4), `{"values":{"p":1,"n":1,"c_q":0.0001}}`)
	f.Add(uint8(5), `{"values":{"bg.3":0.95,"power.0":0.05,"net.startup":0}}`)
	f.Add(uint8(7), `{"values":{"latency":0,"bandwidth":7.8125e+07}}`)
	f.Add(uint8(8), `{"values":{"p":1024,"p_max":1024,"latency":0}}`)
	f.Add(uint8(9), `{"values":{"p":2,"p_max":4,"bandwidth":0.125,"latency":4}}`)
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		s := servers[int(which)%len(servers)]
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, pageRequest(s, "POST", "/api/eval", body))
		if rec.Code != 200 && rec.Code != 400 {
			t.Fatalf("%s: %d %s", body, rec.Code, rec.Body)
		}
		if rec.Code == 200 && (strings.Contains(rec.Body.String(), "NaN") || strings.Contains(rec.Body.String(), "Inf")) {
			t.Fatalf("%s: non-finite number in the answer", body)
		}
	})
}
