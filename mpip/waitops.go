package mpip

import (
	"fmt"
	"sort"
	"strings"
)

// CheckWaitOps refuses a wait-operation list (the --wait-ops flag) naming an operation that
// none of the reports contains: such a name would silently add nothing to MPI_Wait and change
// every result (issue 12: `--wait-ops Waitt` set the wait time to 0). The error wraps
// fault.ErrInput and names the unknown operations, the closest known name when one differs only
// in case or by an "MPI_" prefix, and the operations the reports do contain.
// Names are mpiP's, without the MPI_ prefix (Wait, Waitall, Barrier, …).
func CheckWaitOps(reps []*Report, ops []string) error {
	have := map[string]bool{}
	for _, r := range reps {
		for name := range r.Ops {
			have[name] = true
		}
	}
	var unknown []string
	for _, o := range ops {
		if !have[o] {
			unknown = append(unknown, o)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	names := make([]string, 0, len(have))
	for n := range have {
		names = append(names, n)
	}
	sort.Strings(names)
	var hints []string
	for _, u := range unknown {
		bare := strings.TrimPrefix(strings.TrimPrefix(u, "MPI_"), "mpi_")
		for _, n := range names {
			if strings.EqualFold(n, bare) {
				hints = append(hints, fmt.Sprintf("%s → %s", u, n))
			}
		}
	}
	return inputErrorf("--wait-ops: %s: no report has this MPI operation (the reports contain: %s)%s", bounded(unknown), bounded(names), hintText(hints))
}

func hintText(h []string) string {
	if len(h) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(h, ", ") + "?"
}

// bounded joins at most 40 names, then says how many more there are.
func bounded(names []string) string {
	const max = 40
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s … and %d more", strings.Join(names[:max], ", "), len(names)-max)
}
