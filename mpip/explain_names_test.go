package mpip

import (
	"regexp"
	"testing"
)

// TestNextStepsUserTerms: the advice names flags and tools, never Go identifiers (issue 21:
// notes printed "(mpip.Calibrate, --calibrate)" and "(netbench.FitPiecewise)").
func TestNextStepsUserTerms(t *testing.T) {
	goName := regexp.MustCompile(`\b[a-z]+\.[A-Z][A-Za-z]+\b`)
	all := []Finding{{Assumption: "imbalance"}, {Assumption: "collectives"}, {Assumption: "message_sizes"}}
	for _, s := range nextSteps(ExplainOptions{}, all, []int{4}) {
		if m := goName.FindString(s); m != "" {
			t.Errorf("next step names the Go identifier %s: %q", m, s)
		}
	}
}
