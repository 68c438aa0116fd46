package history

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzReadSacct: any input is parsed or refused with ErrInput, never a panic; what parses
// groups into studies whose job counts add up.
func FuzzReadSacct(f *testing.F) {
	for _, p := range []string{"testdata/sacct-slurm-22.05-doc.txt", "testdata/sacct-steps-22.05-doc.txt", "testdata/sacct-two-programs.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("JobID|State|Elapsed|NCPUS\n1|TIMEOUT|1-00:00:00|4\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ReadSacct("fuzz", bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not ErrInput: %v", err)
			}
			return
		}
		n := 0
		for _, s := range Group(a.Jobs) {
			n += len(s.Jobs)
			if len(a.Jobs) < 40 {
				_, _ = Analyze(context.Background(), s, Options{})
			}
		}
		if n != len(a.Jobs) {
			t.Fatalf("studies hold %d jobs of %d", n, len(a.Jobs))
		}
	})
}
