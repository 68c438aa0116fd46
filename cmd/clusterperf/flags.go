package main

import (
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/input"
)

// flagCheck collects range errors of flags so a command refuses all its bad flags at once,
// before any work (app.FlagCheck; the app packages' Flags.Check add to its FlagCheck).
// add, output and err are its methods under the spelling the study files use.
type flagCheck struct{ app.FlagCheck }

func (c *flagCheck) add(format string, args ...any)           { c.Add(format, args...) }
func (c *flagCheck) output(flag, path string, exts ...string) { c.Output(flag, path, exts...) }
func (c *flagCheck) err() error                               { return c.Err() }

// readInput reads a file named on the command line ("-": stdin) with the one input reader
// (internal/input: at most input.MaxBytes, read so that devices, pipes and FIFOs are bounded
// and nothing blocks on a FIFO); a missing, unreadable or too large file is bad input (exit 2).
func readInput(path string) ([]byte, error) { return input.Read(path) }

// into records the study flags' problems in c and says whether a sharded study is asked
// for (the app packages' Flags.Check take it).
func (o studyOptions) into(c *app.FlagCheck) bool {
	var s flagCheck
	o.check(&s)
	c.Errs = append(c.Errs, s.Errs...)
	return o.active()
}
