package answer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

// FindingResult is the one JSON document of a run that ends in a model finding (exit code
// 3: saturation, deadlock, no convergence, no steady state): the answer states the finding
// (an open network's saturation names the station and its capacity, the largest
// sustainable arrival rate λ/U at the model's class mix, Lazowska et al. §5.2), Finding is
// its kind and Notes the full message, which stderr prints too.
type FindingResult struct {
	report.Answered
	Finding  string   `json:"finding"`
	ExitCode int      `json:"exit_code"`
	Notes    []string `json:"notes"`
}

// Finding is the FindingResult of err, a model finding (fault.ErrFinding).
func Finding(err error) *FindingResult {
	kind := "model finding"
	for _, k := range []error{fault.ErrSaturated, fault.ErrDeadlock, fault.ErrNotConverged, fault.ErrNoSteadyState} {
		if errors.Is(err, k) {
			kind = k.Error()
			break
		}
	}
	var b builder
	msg := err.Error()
	first, _, _ := strings.Cut(msg, "\n")
	var se *qn.SaturationError
	switch {
	case errors.As(err, &se) && se.ArrivalRate > 0 && se.Utilization > 0:
		kind = fault.ErrSaturated.Error()
		capacity := se.ArrivalRate / se.Utilization
		b.a.Word("bottleneck", se.Station)
		b.a.Num("bottleneck_utilization", se.Utilization)
		b.a.Num("arrival_rate_per_s", se.ArrivalRate)
		b.a.Num("max_arrival_rate_per_s", capacity)
		b.say(fmt.Sprintf("no steady state: %s saturated (%s busy)", se.Station, pct(se.Utilization)),
			fmt.Sprintf("Arrivals of %s jobs/s exceed %s's capacity of %s jobs/s, the largest sustainable arrival rate at this class mix (λ/U); below it the network has a steady state.", g(se.ArrivalRate), se.Station, g(capacity)))
		b.say(fmt.Sprintf("arrivals %s jobs/s exceed the capacity of %s jobs/s", g(se.ArrivalRate), g(capacity)))
	default:
		b.say(first)
	}
	b.a.Word("finding", kind)
	a := b.done()
	if a.Details == nil {
		a.Details = []string{}
	}
	var notes []string
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		notes = append(notes, strings.TrimSpace(l))
	}
	return &FindingResult{Answered: report.Answered{Answer: a}, Finding: kind, ExitCode: fault.ExitFinding, Notes: notes}
}
