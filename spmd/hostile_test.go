package spmd

import (
	"testing"

	"github.com/clusterperf/clusterperf/internal/hostiletest"
)

// Every file in testdata/hostile is refused (parse, or evaluation over p, d = 1 … 64, 1 … 4)
// with an input error naming the file and containing the expected fragment (issue 12).
func TestHostileInputs(t *testing.T) {
	hostiletest.Run(t, "testdata/hostile/*.yaml", 15, func(f string, data []byte) error {
		m, err := ParseModel(f, data)
		if err != nil {
			return err
		}
		e, err := NewEvaluator(m)
		if err != nil {
			return err
		}
		_, _, err = e.Surface([]int{1, 2, 3, 4, 8, 16, 64}, []int{1, 2, 4}, nil)
		return err
	})
}
