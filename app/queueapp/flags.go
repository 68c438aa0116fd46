package queueapp

import (
	"math"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/queue"
)

// Flags are the queue command's options as given: rates per second (Lambda, Mu), the mean
// service time in seconds, the offered load in Erlangs, the servers' rates and the
// percentiles (in percent) as comma-separated text.
type Flags struct {
	Lambda, Mu, ServiceTime, SCV, Load float64
	Servers, Capacity                  int
	Mus, Percentiles                   string
}

// Request builds the station from the model name and the options that were set (set
// reports whether an option was given): --load replaces --lambda and --mu, --service-time
// replaces --mu, and --servers/--capacity may repeat the model name's but not contradict it.
func (o Flags) Request(set func(string) bool, name string) (Request, error) {
	kind, m, k, err := queue.ParseModelName(name)
	if err != nil {
		return Request{}, app.Input(err)
	}
	s := queue.Spec{Kind: kind, Lambda: o.Lambda, Mu: o.Mu, Servers: m, Capacity: k, SCV: o.SCV}
	if err := o.rates(&s, set, name); err != nil {
		return Request{}, err
	}
	for _, p := range []struct {
		flag               string
		fromName, fromFlag int
		dst                *int
	}{{"servers", m, o.Servers, &s.Servers}, {"capacity", k, o.Capacity, &s.Capacity}} {
		if set(p.flag) {
			if p.fromName != 0 && p.fromName != p.fromFlag {
				return Request{}, app.Inputf("--%s %d contradicts the model name %s", p.flag, p.fromFlag, name)
			}
			*p.dst = p.fromFlag
		}
	}
	if s.Mus, err = queue.ParseFloats("mus", o.Mus); err != nil {
		return Request{}, app.Input(err)
	}
	if s.Percentiles, err = PercentFractions(o.Percentiles); err != nil {
		return Request{}, err
	}
	return Request{Spec: s, LoadGiven: set("load")}, nil
}

// rates sets s's λ and μ from --lambda, --mu, --service-time or --load.
func (o Flags) rates(s *queue.Spec, set func(string) bool, name string) error {
	switch {
	case set("load") && (set("lambda") || set("mu") || set("service-time")):
		return app.Inputf("--load replaces --lambda and --mu: give one or the other")
	case set("load"):
		s.Lambda, s.Mu = o.Load, 1
	case set("mu") && set("service-time"):
		return app.Inputf("give --mu or --service-time, not both")
	case set("service-time"):
		if !(o.ServiceTime > 0) || math.IsInf(o.ServiceTime, 0) {
			return app.Inputf("--service-time %v: must be a finite number > 0 seconds", o.ServiceTime)
		}
		s.Mu = 1 / o.ServiceTime
	}
	if !set("load") && !set("lambda") {
		return app.Inputf("%s needs the arrival rate --lambda (or the offered load --load)", name)
	}
	if !set("load") && !set("mu") && !set("service-time") && s.Kind != queue.KindMMmHetero {
		return app.Inputf("%s needs --mu or --service-time (or --load)", name)
	}
	return nil
}

// PercentFractions reads --percentiles (in percent, each strictly between 0 and 100) as
// fractions, checking them in the flag's units.
func PercentFractions(text string) ([]float64, error) {
	ps, err := queue.ParseFloats("percentiles", text)
	if err != nil {
		return nil, app.Input(err)
	}
	for i, p := range ps {
		if !(p > 0 && p < 100) {
			return nil, app.Inputf("--percentiles %v: a percentile is in percent, strictly between 0 and 100 (e.g. 50,95,99.9)", p)
		}
		ps[i] = p / 100
	}
	return ps, nil
}
