package history

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// An Elapsed far beyond End − Start is refused naming file:line (hostile review P2: a row
// of Start 00:00, End 01:00 and Elapsed 10 days was fitted as a 10-day run). Synthetic row
// in the format of testdata/sacct-slurm-22.05-doc.txt; a row with Elapsed = End − Start reads.
func TestElapsedBeyondEndMinusStart(t *testing.T) {
	const head = "JobID|JobName|NCPUS|NTasks|Start|End|Elapsed|State\n"
	ok := head + "1|app|4|4|2024-01-01T00:00:00|2024-01-01T01:00:00|01:00:00|COMPLETED\n"
	if _, err := ReadSacct("ok.txt", strings.NewReader(ok)); err != nil {
		t.Fatalf("consistent row: %v", err)
	}
	bad := head + "1|app|4|4|2024-01-01T00:00:00|2024-01-01T01:00:00|10-00:00:00|COMPLETED\n"
	_, err := ReadSacct("bad.txt", strings.NewReader(bad))
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "bad.txt:2: Elapsed") || !strings.Contains(err.Error(), "End − Start = 3600 s") {
		t.Fatalf("Elapsed 10 days in a 1-hour span: %v, want a refusal naming bad.txt:2", err)
	}
}
