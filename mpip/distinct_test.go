package mpip

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// The same report given twice is refused naming both (issue 32, from the earlier hostile
// corpus: mpip accepted it silently); different reports pass.
func TestCheckDistinct(t *testing.T) {
	a, b := []byte("@ mpiP\nrun a\n"), []byte("@ mpiP\nrun b\n")
	if err := CheckDistinct([]string{"a.mpiP", "b.mpiP"}, [][]byte{a, b}); err != nil {
		t.Error(err)
	}
	err := CheckDistinct([]string{"a.mpiP", "b.mpiP", "c.mpiP"}, [][]byte{a, b, append([]byte(nil), a...)})
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "a.mpiP and c.mpiP are the same report") {
		t.Errorf("%v", err)
	}
}
