package queueapp

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequest: the request of the queue command's options. M/M/4 with --service-time
// 0.1 s has μ = 1/0.1 = 10 per s and m = 4 from the name; --load 50 is λ = 50, μ = 1
// (Erlangs); percentiles 50,95 are the fractions 0.5, 0.95. Contradictions and missing
// rates are bad input naming the flag.
func TestFlagsRequest(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(n string) bool {
			for _, g := range names {
				if g == n {
					return true
				}
			}
			return false
		}
	}
	q, err := Flags{Lambda: 30, ServiceTime: 0.1, Percentiles: "50,95"}.Request(given("lambda", "service-time"), "M/M/4")
	if err != nil || q.Spec.Mu != 10 || q.Spec.Servers != 4 || len(q.Spec.Percentiles) != 2 || q.Spec.Percentiles[1] != 0.95 || q.LoadGiven {
		t.Fatalf("M/M/4: %+v, %v", q, err)
	}
	q, err = Flags{Load: 50, Servers: 60}.Request(given("load", "servers"), "erlangb")
	if err != nil || q.Spec.Lambda != 50 || q.Spec.Mu != 1 || q.Spec.Servers != 60 || !q.LoadGiven {
		t.Fatalf("erlangb --load 50: %+v, %v", q, err)
	}
	for _, c := range []struct {
		f    Flags
		set  []string
		name string
		want string
	}{
		{Flags{Lambda: 1, Mu: 2, Load: 3}, []string{"lambda", "mu", "load"}, "M/M/1", "--load replaces"},
		{Flags{Lambda: 1, Mu: 2, ServiceTime: 1}, []string{"lambda", "mu", "service-time"}, "M/M/1", "not both"},
		{Flags{Mu: 2}, []string{"mu"}, "M/M/1", "needs the arrival rate"},
		{Flags{Lambda: 1}, []string{"lambda"}, "M/M/1", "needs --mu"},
		{Flags{Lambda: 1, Mu: 2, Servers: 3}, []string{"lambda", "mu", "servers"}, "M/M/2", "--servers 3 contradicts the model name M/M/2"},
		{Flags{Lambda: 1, Mu: 2, Percentiles: "100"}, []string{"lambda", "mu"}, "M/M/1", "strictly between 0 and 100"},
		{Flags{Lambda: 1, ServiceTime: -1}, []string{"lambda", "service-time"}, "M/M/1", "--service-time -1"},
	} {
		_, err := c.f.Request(given(c.set...), c.name)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want bad input %q", c.name, c.set, err, c.want)
		}
	}
}
