package sim

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

// eventHeap is a binary min-heap on (t, seq) holding events by value (no allocation per
// event once grown).
type eventHeap struct {
	ev  []event
	seq uint64
}

func (h *eventHeap) less(i, j int) bool {
	a, b := &h.ev[i], &h.ev[j]
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

func (h *eventHeap) push(e event) {
	h.seq++
	e.seq = h.seq
	h.ev = append(h.ev, e)
	i := len(h.ev) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.ev[i], h.ev[p] = h.ev[p], h.ev[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	top := h.ev[0]
	n := len(h.ev) - 1
	h.ev[0] = h.ev[n]
	h.ev = h.ev[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h.ev[i], h.ev[m] = h.ev[m], h.ev[i]
		i = m
	}
	return top
}

func (h *eventHeap) len() int { return len(h.ev) }
