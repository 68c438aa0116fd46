// Package cmdline holds the command line's domain-free helpers, so that cmd/clusterperf keeps
// only the binding of flags to requests: the progress line of long runs on a terminal, flag
// values that refuse a second value or take units, "did you mean" suggestions by edit
// distance, and the version string from the build information. It knows no model.
package cmdline
