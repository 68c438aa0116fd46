package sim

import "github.com/clusterperf/clusterperf/internal/pq"

// event is one scheduled happening. kind: evDone (service completion of job at st), evArrive
// (an open class's next arrival; job = class), evThink (a closed job's think time ended).
type event struct {
	t    float64
	seq  uint64 // tie-break: events at the same instant in scheduling order
	job  int32
	st   int32
	ver  uint32 // PS completions carry the station's version; stale ones are skipped
	kind uint8
}

const (
	evDone uint8 = iota
	evArrive
	evThink
)

// Before orders events by time, then by the order they were scheduled.
func (e *event) Before(o *event) bool { return e.t < o.t || (e.t == o.t && e.seq < o.seq) }

// eventHeap stamps events with a sequence number and keeps them in a pq.Heap.
type eventHeap struct {
	q   pq.Heap[event, *event]
	seq uint64
}

func (h *eventHeap) push(e event) {
	h.seq++
	e.seq = h.seq
	h.q.Push(e)
}

func (h *eventHeap) pop() event { return h.q.Pop() }

func (h *eventHeap) len() int { return h.q.Len() }
