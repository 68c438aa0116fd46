// Package fault classifies the errors every clusterperf package returns, so that a caller
// (the command, a notebook, a service) can tell bad input from a finding about the model
// from a failure of the tool, with errors.Is and never by matching message text.
//
// Three classes, and the exit code the command gives each:
//
//	ErrInput     2  the input is wrong or out of range: a file field, a flag, a format
//	ErrTooLarge  2  the input is valid but its estimated work or memory exceeds a limit;
//	                the message gives the estimate and the flag that raises the limit
//	ErrFinding   3  the model was read and analysed, and has no answer of the kind asked:
//	                saturation (no steady state), deadlock, not converged, simulation too
//	                short to leave its transient. Never printed as a result.
//	ErrInterrupted 130 the run was stopped (Ctrl-C, SIGINT) before it finished; what was
//	                finished may have been printed, marked partial (130 = 128 + SIGINT,
//	                the shell's convention). context.Canceled counts as ErrInterrupted.
//	anything else 1 a failure of the tool itself (I/O while writing output, a bug)
//
// Library code wraps one of the sentinels, e.g.
//
//	fmt.Errorf("%w: station %q: utilization %.3g ≥ 1", fault.ErrSaturated, name, u)
//
// ErrSaturated, ErrDeadlock, ErrNotConverged and ErrNoSteadyState are findings:
// errors.Is(err, fault.ErrFinding) holds for each of them.
package fault

import (
	"context"
	"errors"
	"strings"
)

// kind is a sentinel error that may belong to a broader class.
type kind struct {
	msg    string
	parent error
}

func (k *kind) Error() string { return k.msg }

// Is reports whether target is k's class, so errors.Is(ErrSaturated, ErrFinding) holds.
func (k *kind) Is(target error) bool { return k.parent != nil && target == k.parent }

var (
	// ErrInput marks an error caused by the user's input: exit code 2.
	ErrInput error = &kind{msg: "invalid input"}
	// ErrTooLarge marks an input whose estimated work or memory exceeds a limit: exit code 2.
	ErrTooLarge error = &kind{msg: "input too large", parent: ErrInput}
	// ErrFinding marks a model-level finding (no answer of the kind asked exists): exit code 3.
	ErrFinding error = &kind{msg: "model finding"}

	// ErrSaturated: an open class's arrivals exceed a station's capacity; no steady state.
	ErrSaturated error = &kind{msg: "saturated", parent: ErrFinding}
	// ErrDeadlock: a Petri net (or a program) reached a marking with no enabled transition
	// before its final marking.
	ErrDeadlock error = &kind{msg: "deadlock", parent: ErrFinding}
	// ErrNotConverged: an iterative method stopped before its tolerance.
	ErrNotConverged error = &kind{msg: "not converged", parent: ErrFinding}
	// ErrNoSteadyState: a simulation did not reach steady state (no completions, a transient
	// that does not end within the run).
	ErrNoSteadyState error = &kind{msg: "no steady state", parent: ErrFinding}

	// ErrInterrupted: the run was stopped (SIGINT, a cancelled context) before it finished:
	// exit code 130. A command that printed a partial result still returns it.
	ErrInterrupted error = &kind{msg: "interrupted"}
)

// Exit codes of the clusterperf command.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitInput   = 2
	ExitFinding = 3
	// ExitInterrupted is 128 + SIGINT(2), what a shell reports for a process Ctrl-C stopped.
	ExitInterrupted = 130
)

// ExitCode maps an error to the command's exit code: nil 0, ErrInput (and ErrTooLarge) 2,
// ErrFinding 3, ErrInterrupted or context.Canceled 130, anything else 1.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, ErrInterrupted) || errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, ErrInput):
		return ExitInput
	case errors.Is(err, ErrFinding):
		return ExitFinding
	default:
		return ExitFailure
	}
}

// classes are the sentinels, most specific first, whose words Detail removes.
var classes = []error{ErrTooLarge, ErrInput, ErrSaturated, ErrDeadlock, ErrNotConverged, ErrNoSteadyState, ErrFinding, ErrInterrupted}

// Detail is err's message for a note or a table cell, whose own words say what failed
// ("no backtest: …"): the message without the class words ("invalid input: ",
// "saturated: ", …) that wrapping a sentinel as fmt.Errorf("%w: …", ErrInput, …) puts in
// front of it. Only the words of classes err carries (errors.Is) are removed, so the class
// is still read by type, never from the text; the error itself is unchanged.
func Detail(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	for _, c := range classes {
		if errors.Is(err, c) { // the words open the message or one of its ": "-joined parts
			w := c.Error() + ": "
			for strings.HasPrefix(s, w) || strings.Contains(s, ": "+w) {
				s = strings.ReplaceAll(strings.TrimPrefix(s, w), ": "+w, ": ")
			}
		}
	}
	return s
}
