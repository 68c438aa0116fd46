// Package pq is the binary min-heap of the discrete-event engines (sim, tpn): items by
// value, no allocation per operation once grown, ordered by the items' own Before method
// (time, then a sequence number: same-time events come out in the order they were pushed).
package pq

// Item is implemented by a pointer to the heap's element type.
type Item[E any] interface {
	*E
	Before(other *E) bool
}

// Heap is a min-heap of E.
type Heap[E any, P Item[E]] struct {
	items []E
}

// Len is the number of items.
func (h *Heap[E, P]) Len() int { return len(h.items) }

// Top is the least item (the heap must not be empty).
func (h *Heap[E, P]) Top() *E { return &h.items[0] }

// Push adds an item.
func (h *Heap[E, P]) Push(e E) {
	h.items = append(h.items, e)
	a := h.items
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !P(&a[i]).Before(&a[p]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// Pop removes and returns the least item.
func (h *Heap[E, P]) Pop() E {
	a := h.items
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && P(&a[r]).Before(&a[l]) {
			m = r
		}
		if !P(&a[m]).Before(&a[i]) {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	h.items = a
	return top
}
