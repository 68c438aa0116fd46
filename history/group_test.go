package history

import (
	"fmt"
	"testing"
)

// TestGroupInPlace: Group reorders the jobs by study without copying them; each study keeps
// its jobs in their accounting order and its Jobs share the input's array. Jobs of programs
// a, b, c interleaved as a b a c b a: studies a (jobs 1, 3, 6), b (2, 5), c (4) by first
// appearance.
func TestGroupInPlace(t *testing.T) {
	progs := []string{"a", "b", "a", "c", "b", "a"}
	var jobs []Job
	for i, p := range progs {
		jobs = append(jobs, Job{JobID: fmt.Sprint(i + 1), SubmitLine: "srun -n 4 ./" + p, Tasks: 4, Outcome: Observed, State: "COMPLETED"})
	}
	studies := Group(jobs)
	want := [][]string{{"1", "3", "6"}, {"2", "5"}, {"4"}}
	if len(studies) != len(want) {
		t.Fatalf("%d studies, want %d", len(studies), len(want))
	}
	for i, s := range studies {
		var got []string
		for _, j := range s.Jobs {
			got = append(got, j.JobID)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[i]) || s.ID != i+1 {
			t.Errorf("study %d: jobs %v, want %v", s.ID, got, want[i])
		}
	}
	if &studies[0].Jobs[0] != &jobs[0] || &studies[2].Jobs[0] != &jobs[5] {
		t.Errorf("studies do not share the input's array")
	}
}
