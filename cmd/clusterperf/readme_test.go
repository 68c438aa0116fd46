package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeCommands returns every `go run ./cmd/clusterperf …` command in README.md's sh code
// blocks (continuation lines joined, comments dropped) as argument lists.
func readmeCommands(readme string) [][]string {
	var cmds [][]string
	inSh := false
	var cur string
	for _, line := range strings.Split(readme, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "```"):
			inSh = !inSh && trim == "```sh"
			continue
		case !inSh:
			continue
		}
		if cur != "" {
			cur += " " + trim
		} else if strings.HasPrefix(trim, "go run ./cmd/clusterperf") {
			cur = trim
		} else {
			continue
		}
		if strings.HasSuffix(cur, "\\") {
			cur = strings.TrimSuffix(cur, "\\")
			continue
		}
		if i := strings.Index(cur, " #"); i >= 0 {
			cur = cur[:i]
		}
		cmds = append(cmds, strings.Fields(cur)[3:])
		cur = ""
	}
	return cmds
}

// outputFlags write files: the README test sends them to a temporary directory.
var outputFlags = map[string]bool{"--plot": true, "--report": true, "--out": true, "--html": true, "--export-jmva": true, "--export-pnml": true}

// TestReadmeTour: every `go run ./cmd/clusterperf …` command of README.md and docs/tour.md runs in-process
// from the repository root (globs expanded as a shell would, output files redirected into a
// temporary directory) and exits 0, so the README stays copy-pasteable. The whole tour
// takes about 5 s on the loaded 2-vCPU host.
func TestReadmeTour(t *testing.T) {
	var cmds [][]string
	for _, f := range []string{"../../README.md", "../../docs/tour.md"} { // README's questions, then the tour
		readme, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, readmeCommands(string(readme))...)
	}
	if len(cmds) < 10 {
		t.Fatalf("found %d commands in README.md and docs/tour.md", len(cmds))
	}
	tmp := t.TempDir()
	t.Chdir("../..")
	for _, args := range cmds {
		line := strings.Join(args, " ")
		t.Run(line, func(t *testing.T) {
			var expanded []string
			for i, a := range args {
				switch {
				case i > 0 && outputFlags[args[i-1]]:
					a = filepath.Join(tmp, filepath.Base(a))
				case strings.ContainsAny(a, "*?["):
					m, err := filepath.Glob(a)
					if err != nil || len(m) == 0 {
						t.Fatalf("%s matches no file", a)
					}
					expanded = append(expanded, m...)
					continue
				}
				expanded = append(expanded, a)
			}
			var out, errb bytes.Buffer
			start := time.Now()
			if code := run(context.Background(), expanded, &out, &errb); code != 0 {
				t.Errorf("clusterperf %s: exit %d: %s", line, code, errb.String())
			}
			t.Logf("%.2f s", time.Since(start).Seconds())
		})
	}
}
