package tpn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// runFiles is what `clusterperf tpn` does with a program and a cluster file (or a PNML
// net): parse, build within the default budgets, run, and turn a deadlock or cut-off into
// its finding. It returns the first error.
func runFiles(prog, cluster, pnml string) error {
	var n *Net
	if pnml != "" {
		var err error
		if n, err = ReadPNMLFile(pnml); err != nil {
			return err
		}
	} else {
		pb, err := os.ReadFile(prog)
		if err != nil {
			return err
		}
		p, err := ParseProgram(prog, pb)
		if err != nil {
			return err
		}
		cb, err := os.ReadFile(cluster)
		if err != nil {
			return err
		}
		c, err := ParseCluster(cluster, cb)
		if err != nil {
			return err
		}
		if n, err = Build(p, c); err != nil {
			return err
		}
	}
	r, err := n.Run(Options{Record: true})
	if err != nil {
		return err
	}
	return r.Err()
}

// header reads the "want:" and "class:" lines at the top of a corpus file.
func header(t *testing.T, path string) (want, class string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.SplitN(string(b), "\n", 3)[:2] {
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(line, "#"), "<!--"), "-->"))
		if v, ok := strings.CutPrefix(line, "want:"); ok {
			want = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "class:"); ok {
			class = strings.TrimSpace(v)
		}
	}
	if want == "" || class == "" {
		t.Fatalf("%s: no want:/class: header", path)
	}
	return want, class
}

// TestHostile runs the hostile-input corpus of testdata/hostile (its README says how): every
// file is refused with its class of error (errors.Is) and a message containing its fragment
// (file:line where the input has lines); the two ok files run to completion.
func TestHostile(t *testing.T) {
	dir := filepath.Join("testdata", "hostile")
	okProg, okCluster := filepath.Join(dir, "ok.prog.yaml"), filepath.Join(dir, "ok.cluster.yaml")
	if err := runFiles(okProg, okCluster, ""); err != nil {
		t.Fatalf("the ok files fail: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	cases := 0
	for _, f := range files {
		base := filepath.Base(f)
		if base == "README.md" || strings.HasPrefix(base, "ok.") {
			continue
		}
		prog, cluster, pnml := okProg, okCluster, ""
		switch {
		case strings.HasSuffix(base, ".pnml"):
			pnml = f
		case strings.HasSuffix(base, ".prog.yaml"):
			prog = f
			if c := strings.TrimSuffix(f, ".prog.yaml") + ".cluster.yaml"; fileExists(c) {
				cluster = c
			}
		case strings.HasSuffix(base, ".cluster.yaml"):
			if fileExists(strings.TrimSuffix(f, ".cluster.yaml") + ".prog.yaml") {
				continue // run with its program
			}
			cluster = f
		default:
			t.Errorf("%s: unknown kind of corpus file", f)
			continue
		}
		cases++
		t.Run(base, func(t *testing.T) {
			want, class := header(t, f)
			err := runFiles(prog, cluster, pnml)
			if err == nil {
				t.Fatalf("accepted; want %s error %q", class, want)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q\nlacks %q", err, want)
			}
			classes := map[string]error{"input": fault.ErrInput, "too-large": fault.ErrTooLarge, "deadlock": fault.ErrDeadlock, "finding": fault.ErrFinding}
			cl, ok := classes[class]
			if !ok {
				t.Fatalf("unknown class %q", class)
			}
			if !errors.Is(err, cl) {
				t.Errorf("error %q is not %s (exit code %d)", err, class, fault.ExitCode(err))
			}
		})
	}
	if cases < 30 {
		t.Errorf("%d hostile cases, want at least 30", cases)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
