package qn

import (
	"errors"
	"fmt"
	"math"
)

// SaturationError reports an open (or mixed) network in which a station's utilisation by
// the open classes is at least 1, so no steady state exists. With ArrivalRate (the open
// classes' total λ, set by Solve) the message names the station's capacity λ/U: the total
// arrival rate, at the same class mix, at which its utilisation reaches 1 (U is linear in λ).
type SaturationError struct {
	Station     string
	Utilization float64 // per server
	ArrivalRate float64 // total open arrival rate, jobs/s; 0: unknown
}

func (e *SaturationError) Error() string {
	if math.IsInf(e.Utilization, 0) {
		return fmt.Sprintf("station %q is saturated: utilization beyond 1.8e308 ≥ 1 (open arrivals exceed its capacity)", e.Station)
	}
	if e.ArrivalRate > 0 && !math.IsInf(e.ArrivalRate, 0) && e.Utilization > 0 {
		return fmt.Sprintf("station %q is saturated: utilization %.4g ≥ 1 (open arrivals %.4g jobs/s exceed its capacity of %.4g jobs/s, the largest sustainable rate at this class mix)",
			e.Station, e.Utilization, e.ArrivalRate, e.ArrivalRate/e.Utilization)
	}
	return fmt.Sprintf("station %q is saturated: utilization %.4g ≥ 1 (open arrivals exceed its capacity)", e.Station, e.Utilization)
}

// ErrUnsupported is wrapped by errors for models a solver cannot handle.
var ErrUnsupported = errors.New("unsupported by this solver")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}
