package main

import (
	"fmt"
	"os"
)

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
