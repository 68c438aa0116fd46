package explore

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The allocation of 49 processes is listed by workstation, every process once, each group's
// count equal to its names; up to a dozen processes it is listed process by process.
func TestAllocationText(t *testing.T) {
	for _, ex := range examples {
		if ex.cluster == "" {
			continue
		}
		m := loadExample(t, ex).(*tpnModel)
		txt := m.allocationText(m.hosts())
		seen := map[string]int{}
		if len(m.prog.Processes) <= 12 {
			for _, part := range strings.Split(txt, ", ") {
				p, _, ok := strings.Cut(part, "→")
				if !ok {
					t.Fatalf("%s: %q is not process→workstation", ex.name, part)
				}
				seen[p]++
			}
		} else {
			re := regexp.MustCompile(`^(\S+): (.+) \((\d+)\)$`)
			for _, part := range strings.Split(txt, "; ") {
				g := re.FindStringSubmatch(part)
				if g == nil {
					t.Fatalf("%s: %q is not 'workstation: processes (n)'", ex.name, part)
				}
				names := strings.Split(g[2], ", ")
				if n, _ := strconv.Atoi(g[3]); n != len(names) {
					t.Errorf("%s: %s lists %d processes, says %d", ex.name, g[1], len(names), n)
				}
				for _, p := range names {
					if m.hosts()[p] != g[1] {
						t.Errorf("%s: %s listed on %s, allocated to %s", ex.name, p, g[1], m.hosts()[p])
					}
					seen[p]++
				}
			}
		}
		for _, p := range m.prog.Processes {
			if seen[p.Name] != 1 {
				t.Errorf("%s: process %s listed %d times", ex.name, p.Name, seen[p.Name])
			}
		}
	}
}
