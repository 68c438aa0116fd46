package cmdline

import (
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
)

// usageError is a usage mistake (a missing argument, an unknown command, topic or flag):
// Error is the message, errors.Is sees fault.ErrInput (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

// inputf is a usage error of a formatted message.
func inputf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }
