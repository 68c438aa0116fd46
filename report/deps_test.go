package report

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDomainImports (issue 28): the renderer sits at the bottom of the module. Of the
// module's packages, report depends only on fault and internal/... (go list -deps), so a
// domain package's tables live with its question (package app), not here.
func TestNoDomainImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/clusterperf/clusterperf"
	for _, dep := range strings.Fields(string(out)) {
		rest, ok := strings.CutPrefix(dep, mod+"/")
		if !ok || rest == "report" || rest == "fault" || strings.HasPrefix(rest, "internal/") {
			continue
		}
		t.Errorf("report depends on %s", dep)
	}
}
