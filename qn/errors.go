package qn

import (
	"errors"
	"fmt"
	"math"
)

// SaturationError reports an open (or mixed) network in which a station's utilisation by
// the open classes is at least 1, so no steady state exists.
type SaturationError struct {
	Station     string
	Utilization float64 // per server
}

func (e *SaturationError) Error() string {
	if math.IsInf(e.Utilization, 0) {
		return fmt.Sprintf("station %q is saturated: utilization beyond 1.8e308 ≥ 1 (open arrivals exceed its capacity)", e.Station)
	}
	return fmt.Sprintf("station %q is saturated: utilization %.4g ≥ 1 (open arrivals exceed its capacity)", e.Station, e.Utilization)
}

// ErrUnsupported is wrapped by errors for models a solver cannot handle.
var ErrUnsupported = errors.New("unsupported by this solver")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}
