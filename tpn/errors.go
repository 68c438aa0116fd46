package tpn

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// maxErrors is how many problems an error lists before "… and N more".
const maxErrors = 20

// inputError is one or more problems with the user's input: errors.Is(err, fault.ErrInput)
// holds, errors.As finds the *spec.Error (file:line) of each, and the text lists at most
// maxErrors of them.
type inputError struct {
	errs []error
	more int
}

func (e *inputError) Error() string {
	var b strings.Builder
	for i, err := range e.errs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(err.Error())
	}
	if e.more > 0 {
		fmt.Fprintf(&b, "\n… and %d more", e.more)
	}
	return b.String()
}

func (e *inputError) Unwrap() []error { return append(append([]error(nil), e.errs...), fault.ErrInput) }

// inputErrors joins errs (nil if none) into an input error listing at most maxErrors.
// Joined errors (errors.Join) inside errs are flattened first.
func inputErrors(errs []error) error {
	var flat []error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			if _, mine := err.(*inputError); !mine {
				for _, x := range j.Unwrap() {
					walk(x)
				}
				return
			}
		}
		if ie, ok := err.(*inputError); ok {
			flat = append(flat, ie.errs...)
			return
		}
		flat = append(flat, err)
	}
	for _, err := range errs {
		if err != nil {
			walk(err)
		}
	}
	if len(flat) == 0 {
		return nil
	}
	e := &inputError{errs: flat}
	if len(flat) > maxErrors {
		e.errs, e.more = flat[:maxErrors], len(flat)-maxErrors
	}
	return e
}

// asInput marks err (a parse or build error) as input; nil stays nil.
func asInput(err error) error {
	if err == nil {
		return nil
	}
	return inputErrors([]error{err})
}

// at is a problem at a file and line (line 0: the file as a whole).
func at(file string, line int, format string, args ...any) error {
	if file == "" {
		file = "program"
	}
	return &spec.Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// errTooLarge is a refusal of an input whose estimated size exceeds a limit.
func errTooLarge(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{fault.ErrTooLarge}, args...)...)
}
