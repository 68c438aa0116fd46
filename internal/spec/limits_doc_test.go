package spec

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestArchitectureFileLimit: ARCHITECTURE.md states the model-file limit the code enforces,
// MaxFileSize (hostile review: the document said 16 MiB while Parse refused above 1 MiB).
func TestArchitectureFileLimit(t *testing.T) {
	doc, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("files ≤ %d MiB (`MaxFileSize`)", MaxFileSize>>20)
	if MaxFileSize%(1<<20) != 0 || !strings.Contains(string(doc), want) {
		t.Fatalf("ARCHITECTURE.md's internal/spec row must say %q (MaxFileSize = %d bytes)", want, MaxFileSize)
	}
}
