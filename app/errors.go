package app

import (
	"errors"
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/qn"
)

// classified is an error with a fault class added at the application's edge: Error is the
// original message, errors.Is/As see both the original error and the class.
type classified struct {
	err   error
	class error
}

func (e classified) Error() string   { return e.err.Error() }
func (e classified) Unwrap() []error { return []error{e.err, e.class} }

// isClassified reports whether err already carries a fault class.
func isClassified(err error) bool {
	return errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrFinding)
}

// Input marks an error from reading or validating the user's input (a file, a flag) as
// fault.ErrInput (exit 2), unless it is already classified (a finding stays a finding).
func Input(err error) error {
	if err == nil || isClassified(err) {
		return err
	}
	return classified{err, fault.ErrInput}
}

// Inputf is Input of a formatted message (use %w to keep a cause).
func Inputf(format string, args ...any) error { return Input(fmt.Errorf(format, args...)) }

// Finding marks err as the model finding class (fault.ErrSaturated, …): exit 3.
func Finding(class, err error) error {
	if err == nil || isClassified(err) {
		return err
	}
	return classified{err, class}
}

// Lib classifies an error returned by a library call by its type, never its text:
// spec.Error (file:line) is input, qn.SaturationError a saturation finding,
// qn.ErrUnsupported input (the model does not suit the solver). Anything else the library
// did not classify is a runtime failure (exit 1).
func Lib(err error) error {
	if err == nil || isClassified(err) {
		return err
	}
	var se *spec.Error
	var sat *qn.SaturationError
	switch {
	case errors.As(err, &sat):
		return Finding(fault.ErrSaturated, err)
	case errors.As(err, &se), errors.Is(err, qn.ErrUnsupported):
		return Input(err)
	}
	return err
}

// Classify keeps an input error (fault.ErrInput) as input and leaves any other as it is.
func Classify(err error) error {
	if errors.Is(err, fault.ErrInput) {
		return Input(err)
	}
	return err
}
