package mpip

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadInputsAtLimit reads a table of collected values of MaxCSVRuns rows (P = 2, 3,
// …: each row's checks include the model's demands).
func BenchmarkReadInputsAtLimit(b *testing.B) {
	var s strings.Builder
	s.WriteString("label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat\n")
	for i := 0; i < MaxCSVRuns; i++ {
		fmt.Fprintf(&s, "run%d,%d,49.7,3.05,0.897,6724,27721,156.978e6,165.253e-6\n", i, 2+i)
	}
	data := s.String()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		runs, err := ReadInputs("big.csv", strings.NewReader(data))
		if err != nil || len(runs) != MaxCSVRuns {
			b.Fatal(err)
		}
	}
}
