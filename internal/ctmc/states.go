package ctmc

import "fmt"

// stateSpace numbers the distinct states of a chain in the order they are first met (the
// breadth-first enumeration of Solve and SolveBlocking), each state a vector of small
// counts (below 2^16).
type stateSpace struct {
	index  map[string]int
	states [][]int
}

func newStateSpace() *stateSpace { return &stateSpace{index: map[string]int{}} }

// add returns the number of state s, numbering it next if it is new; a new state beyond
// limit states (limit > 0) is refused with ErrTooLarge. s is kept, not copied.
func (sp *stateSpace) add(s []int, limit int) (int, error) {
	b := make([]byte, 0, 2*len(s))
	for _, v := range s {
		b = append(b, byte(v), byte(v>>8))
	}
	k := string(b)
	if i, ok := sp.index[k]; ok {
		return i, nil
	}
	if limit > 0 && len(sp.states) >= limit {
		return 0, fmt.Errorf("%w: more than %d states", ErrTooLarge, limit)
	}
	sp.index[k] = len(sp.states)
	sp.states = append(sp.states, s)
	return len(sp.states) - 1, nil
}
