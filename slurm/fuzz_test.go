package slurm

import (
	"testing"

	"github.com/clusterperf/clusterperf/shard"
)

// FuzzParsers: whatever sacct, scontrol or sbatch print, the parsers return without a
// panic, and every task index they accept is a valid array index.
func FuzzParsers(f *testing.F) {
	f.Add("77_0|COMPLETED|0:0\n77_[3-4%2]|PENDING|0:0\n", "JobId=80 ArrayJobId=77 ArrayTaskId=2-4,6 JobState=PENDING ExitCode=0:0\n", "77;local\n")
	f.Add("77_x|A|B", "ArrayJobId=77 ArrayTaskId=1-", "")
	f.Fuzz(func(t *testing.T, sacct, scontrol, sbatch string) {
		for _, parse := range []func(string, string) (map[int]Task, error){parseSacct, parseScontrol} {
			for _, in := range []string{sacct, scontrol} {
				ts, err := parse("77", in)
				if err != nil {
					continue
				}
				for i, tk := range ts {
					if i < 0 || i > shard.MaxShards || tk.Index != i {
						t.Fatalf("index %d (task %+v) from %q", i, tk, in)
					}
				}
			}
		}
		if id, err := parseJobID([]byte(sbatch)); err == nil && id == "" {
			t.Fatalf("empty job id from %q", sbatch)
		}
	})
}
