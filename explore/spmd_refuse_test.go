package explore

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestSPMDRefusedPointsAre400: on examples/spmd/argos.yaml the sliders reach a point the
// model file's rules refuse — every time 0 (the model's time 0/0 = NaN), or s_par = 1e-300
// (below spmd.MinTime) — which /api/eval answered with HTTP 500 and /api/save wrote as a
// file the CLI then failed on (hostile review 8, P1-3). Both are now HTTP 400 naming the
// phase's sliders.
func TestSPMDRefusedPointsAre400(t *testing.T) {
	data, err := os.ReadFile("../examples/spmd/argos.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load("argos.yaml", data, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"values":{"s_par.0":0,"s_ser.0":0,"s0_com.0":0,"sr_com.0":0,"s0_io.0":0,"sr_io.0":0,"w.0":0}}`,
		`{"values":{"s_par.0":1e-300,"s_ser.0":0,"s0_io.0":0,"sr_io.0":0}}`,
	} {
		for _, path := range []string{"/api/eval", "/api/save"} {
			srv := NewServer(m, "test")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, pageRequest(srv, "POST", path, body))
			if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "s_par.0") {
				t.Errorf("%s %s: %d %s, want 400 naming the sliders", path, body, rec.Code, rec.Body)
			}
		}
	}
}
