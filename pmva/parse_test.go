package pmva

import (
	"testing"
)

// TestThesisNetworkFile: the model file has the shape of 001 §6.1.4.
func TestThesisNetworkFile(t *testing.T) {
	m := thesisModel(t)
	names, N := Order(m, false)
	if len(N) != 3 || N[0] != 4095 || N[1] != 177 || N[2] != 127 || names[0] != "A" || len(m.Stations) != 5 {
		t.Fatalf("order %v, N %v, K %d", names, N, len(m.Stations))
	}
	if Points(N) != 93323264 {
		t.Errorf("points %v", Points(N))
	}
}
