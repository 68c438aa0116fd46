package mpip

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestDamagedStructureRefused: edits of the real 8-rank driver report (testdata/samples,
// hpc-mpip; the reproducers of hostile review 8, P1-1 and P2-12) that mpiP cannot write are
// refused at the damaged line, exit 2; before, each gave exit 0 (the 9e30 Count made Isend
// take 1.83e+25 % of the MPI time, -5 dropped Isend without a word).
func TestDamagedStructureRefused(t *testing.T) {
	b, err := os.ReadFile("testdata/samples/hpc-mpip__driver.8.253.1.mpiP")
	if err != nil {
		t.Fatal(err)
	}
	orig := strings.Split(string(b), "\n")
	sub := func(n int, old, new string) func([]string) []string {
		return func(l []string) []string {
			if !strings.Contains(l[n-1], old) {
				t.Fatalf("line %d %q lacks %q", n, l[n-1], old)
			}
			l[n-1] = strings.Replace(l[n-1], old, new, 1)
			return l
		}
	}
	double := func(l []string) []string { // sed '36,48p': every line of the Callsites section twice
		var out []string
		for i, s := range l {
			out = append(out, s)
			if i >= 35 && i <= 47 {
				out = append(out, s)
			}
		}
		return out
	}
	for _, c := range []struct {
		name, want string
		edit       func([]string) []string
	}{
		{"huge star count", "d.mpiP:126: ", sub(126, "2444442", "9e30")},
		{"negative star count", "d.mpiP:126: ", sub(126, "2444442", "-5")},
		{"fractional star count", "d.mpiP:126: ", sub(126, "2444442", "2444442.5")},
		{"star count off by one", "d.mpiP:126: ", sub(126, "2444442", "2444443")},
		{"star mean off", "d.mpiP:126: ", sub(126, "0.0024 ", "0.0048 ")},
		{"rank beyond P", "d.mpiP:74: ", sub(74, "    2    1", "    2    99")},
		{"duplicate site rank", "d.mpiP:74: ", sub(74, "Allreduce            2    1", "Allreduce            2    0")},
		{"callsites header", "d.mpiP:36: ", sub(36, "Callsites: 9 ", "Callsites: 3 ")},
		{"doubled section", "d.mpiP:37: ", double},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := c.edit(append([]string(nil), orig...))
			_, err := Parse("d.mpiP", strings.NewReader(strings.Join(l, "\n")))
			if err == nil || !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want an input error at %s", err, c.want)
			}
		})
	}
	if _, err := Parse("d.mpiP", strings.NewReader(string(b))); err != nil {
		t.Fatalf("the unedited report: %v", err)
	}
}
