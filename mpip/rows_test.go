package mpip

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// edited is testdata/ft-alltoall.4.1.1.mpiP with its 1-based line n replaced by row.
func edited(t *testing.T, n int, row string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/ft-alltoall.4.1.1.mpiP")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[n-1] = row
	return strings.Join(lines, "\n")
}

// TestRowsOutOfOrderRefused: a Callsite Time row with Min > Mean or Mean > Max cannot come
// from mpiP (each is rounded from ordered statistics with the same monotone rounding,
// mpip-format.md §3.7), so it is refused at its line, exit 2, instead of being accepted
// with the idle part Count·(Mean − Min) clamped to 0 (hostile review 7, P2-4: a1.mpiP and
// a6.mpiP, the same edits of lines 47 and 43).
func TestRowsOutOfOrderRefused(t *testing.T) {
	for _, c := range []struct {
		name, want string
		line       int
		row        string
	}{
		{"min above mean (* row)", "ft.mpiP:47: ", 47, "Alltoall             1    *     80      250      150      200  30.00 100.00"},
		{"mean above max (rank row)", "ft.mpiP:43: ", 43, "Alltoall             1    0     20      100      200      150  40.00 100.00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("ft.mpiP", strings.NewReader(edited(t, c.line, c.row)))
			if err == nil || !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want an input error at %s", err, c.want)
			}
		})
	}
}

// TestWaitOpsInconsistencyNamesLine: wait operations taking more than the MPI time are
// refused at the line of the largest wait operation's row (hostile review 7, P2-5: a3.mpiP,
// Count 80000 on line 47, was refused naming the file only). Alltoall is a blocking
// collective, so its wait is the idle part 80000 × (150 − 100) ms = 4000 s, against the file's
// ΣMPITime 12 s (the * row of MPI Time). The rank rows 43–46 are edited to 20000 calls each
// too, so the * row still agrees with them (Σ Count = 80000; Σ Count×Mean =
// 20000×(200+150+125+125) = 1.2e7 ms = 80000 × 150).
func TestWaitOpsInconsistencyNamesLine(t *testing.T) {
	src := edited(t, 47, "Alltoall             1    *  80000      250      150      100  30.00 100.00")
	for n := 43; n <= 46; n++ {
		lines := strings.Split(src, "\n")
		lines[n-1] = strings.Replace(lines[n-1], "    20 ", " 20000 ", 1)
		src = strings.Join(lines, "\n")
	}
	r, err := Parse("ft.mpiP", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Summarize(Options{WaitOps: []string{"Alltoall"}})
	if err == nil || !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), "ft.mpiP:47: inconsistent: wait operations take") {
		t.Fatalf("got %v, want a refusal at ft.mpiP:47", err)
	}
}
