package pq

import (
	"math/rand/v2"
	"sort"
	"testing"
)

type ev struct {
	t   float64
	seq int
}

func (e *ev) Before(o *ev) bool { return e.t < o.t || (e.t == o.t && e.seq < o.seq) }

// TestOrder: items come out sorted by (t, seq), whatever the push order.
func TestOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Heap[ev, *ev]
	var want []ev
	for i := 0; i < 1000; i++ {
		e := ev{t: float64(rng.IntN(50)), seq: i}
		h.Push(e)
		want = append(want, e)
	}
	sort.Slice(want, func(i, j int) bool { return want[i].Before(&want[j]) })
	for i := range want {
		if got := h.Pop(); got != want[i] {
			t.Fatalf("item %d: %+v, want %+v", i, got, want[i])
		}
	}
	if h.Len() != 0 {
		t.Fatal("not empty")
	}
}
