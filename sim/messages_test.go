package sim

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goName is a Go type or field in a message: Options.MaxReps, Config.Events,
// SPMDConfig.MaxSamples, DefaultEvents, repJSON.
var goName = regexp.MustCompile(`\b((SPMD)?Config|Options)\.[A-Z]\w*|\bDefaultEvents\b|\brepJSON\b`)

// TestMessagesInUserWords: no message the package writes (fmt.Errorf, fmt.Sprintf,
// errors.New) names a Go type or field; they name the flags (--events, --max-events, …) and
// the model file's keys (switch:, routing:) the user gives (hostile review 7 P3-14: "exceed
// Options.MaxTotalEvents 4000000000 (--max-events)", "raise Config.MaxMemoryBytes").
func TestMessagesInUserWords(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !map[string]bool{"Errorf": true, "Sprintf": true, "New": true}[sel.Sel.Name] {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			if m := goName.FindString(s); m != "" {
				t.Errorf("%s: message names %s: %q", fset.Position(lit.Pos()), m, s)
			}
			return true
		})
	}
}

// TestShardReplicationProblemInKeys: a shard file's replication with a value out of float64's
// range is refused by its key and the value wanted, not by Go's struct field
// ("cannot unmarshal number 1e999 into Go struct field repJSON.throughput_per_s of type
// float64", hostile review 7 P3-7).
func TestShardReplicationProblemInKeys(t *testing.T) {
	var r RepResult
	err := json.Unmarshal([]byte(`{"throughput_per_s":[1e999]}`), &r)
	if err == nil || goName.MatchString(err.Error()) || strings.Contains(err.Error(), "Go ") ||
		!strings.Contains(err.Error(), "throughput_per_s: want a finite number") {
		t.Fatalf("got %v", err)
	}
	o := Options{Reps: 1}
	if err := o.validate(); err == nil || !strings.Contains(err.Error(), "--reps 1") {
		t.Errorf("Reps 1: %v", err)
	}
}
