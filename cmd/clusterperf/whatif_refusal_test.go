package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// A JMVA what-if analysis over the sweep budget is refused naming the what-if (issue 32:
// it was refused as "--sweep : …", a flag the user never gave): 1000 populations of 1e8
// in central.jmva.
func TestWhatIfTooLargeNamesWhatIf(t *testing.T) {
	b, err := os.ReadFile("../../examples/jmt/central.jmva")
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = strconv.Itoa(100000000 + i)
	}
	doc := strings.Replace(string(b), "</model>", `<whatIf className="interactive" type="Customer Numbers" values="`+strings.Join(vals, ";")+`"/></model>`, 1)
	path := filepath.Join(t.TempDir(), "big-whatif.jmva")
	os.WriteFile(path, []byte(doc), 0o644)
	var errb strings.Builder
	code := run(context.Background(), []string{"solve", path}, io.Discard, &errb)
	msg := errb.String()
	if code != fault.ExitInput || strings.Contains(msg, "--sweep") || !strings.Contains(msg, `what-if analysis (<whatIf type="Customer Numbers">, 1000 values)`) {
		t.Errorf("exit %d: %s", code, msg)
	}
}
