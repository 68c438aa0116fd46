package main

import (
	"fmt"
	"os"
)

// readInput reads a file named on the command line; a missing or unreadable file is bad
// input (exit 2).
func readInput(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, badInputf("cannot read %s: %v", path, err)
	}
	return b, nil
}

// checkPlotPath rejects a --plot path with an unsupported extension before any work.
func checkPlotPath(p string) error {
	if p == "" {
		return nil
	}
	n := len(p)
	if n < 5 || (p[n-4:] != ".svg" && p[n-4:] != ".png") {
		return badInputf("--plot %q: the file name must end in .svg or .png", p)
	}
	return nil
}

// progressFunc reports progress on stderr when it is a terminal; nil otherwise.
func progressFunc(enabled bool, label string) func(done, total int) {
	if !enabled {
		return nil
	}
	fi, err := os.Stderr.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int) {
		if done == total || done%max(1, total/100) == 0 {
			fmt.Fprintf(os.Stderr, "\r%s %d/%d (%.0f%%)", label, done, total, 100*float64(done)/float64(total))
			if done == total {
				fmt.Fprintln(os.Stderr)
			}
		}
	}
}
