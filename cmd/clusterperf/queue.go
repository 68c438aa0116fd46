package main

import (
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/queueapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/queue"
)

type queueOptions struct {
	lambda, mu, serviceTime, scv, load float64
	servers, capacity                  int
	mus, percentiles                   string
	out                                outOptions
}

func newQueueCmd(stdout, stderr io.Writer) *cobra.Command {
	var o queueOptions
	cmd := &cobra.Command{
		Use:   "queue MODEL",
		Short: "Single-queue formulas: M/M/1, M/M/m, M/M/inf, M/M/1/K, M/M/m/K, M/G/1, Erlang B and C",
		Long: `Solve one queueing station in closed form: utilization, throughput, mean jobs, mean
response and waiting time, the probability of an empty station, of waiting and of being
refused (finite K), and percentiles of the response time where its distribution has a
closed form (M/M/1, M/M/m, M/M/inf, M/M/1/K, M/M/m/K; FCFS). Results agree with GNU
Octave's qsmm1, qsmmm, qsmminf, qsmm1k, qsmmmk, qsmg1, qsammm, erlangb and erlangc to 1e-9.

MODEL: ` + queue.ModelNames + `.
erlangb is the loss system M/M/m/m, erlangc the delay system M/M/m; hetero is an M/M/m
queue whose servers have the rates --mus (approximated, as Octave's qsammm does, by M/M/m
with the mean rate: the output says it is not exact).

Rates are per second: --lambda arrivals, --mu services of one server (or --service-time
seconds). --load A gives the offered load in Erlangs instead (λ = A, μ = 1: times are then
in mean service times). An infinite queue with λ ≥ m·μ has no steady state (an error).

Examples:
  clusterperf queue M/M/1 --lambda 8 --mu 10
  clusterperf queue M/M/4 --lambda 30 --service-time 0.1 --percentiles 50,95,99.9
  clusterperf queue M/M/2/10 --lambda 3 --mu 2 --format json
  clusterperf queue M/G/1 --lambda 0.8 --mu 1 --scv 0   # deterministic service (M/D/1)
  clusterperf queue erlangb --load 50 --servers 60
  clusterperf queue hetero --lambda 73 --mus 10,15,20,20,25`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueue(cmd, o, args[0], stdout)
		},
	}
	f := cmd.Flags()
	cmdline.RateVar(f, &o.lambda, "lambda", "arrival rate λ (jobs/s, or with a unit: 48/min, 2880/h)")
	cmdline.RateVar(f, &o.mu, "mu", "service rate μ of one server (jobs/s, or 60/min)")
	cmdline.DurationVar(f, &o.serviceTime, "service-time", "mean service time 1/μ (s, or with a unit: 5ms, 2min), instead of --mu")
	f.Float64Var(&o.load, "load", 0, "offered load λ/μ in Erlangs, instead of --lambda and --mu")
	f.IntVar(&o.servers, "servers", 0, "number of servers m")
	f.IntVar(&o.capacity, "capacity", 0, "capacity K: most jobs in the station, in service and waiting")
	f.Float64Var(&o.scv, "scv", 1, "M/G/1: squared coefficient of variation of the service time (1 exponential, 0 deterministic)")
	f.StringVar(&o.mus, "mus", "", "hetero: the servers' service rates, comma-separated (jobs/s)")
	f.StringVar(&o.percentiles, "percentiles", "50,90,95,99", "response-time percentiles to report, in percent, comma-separated (empty: none)")
	addOutFlags(cmd, &o.out)
	return cmd
}

func runQueue(cmd *cobra.Command, o queueOptions, name string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	if err := c.Err(); err != nil {
		return err
	}
	s, err := o.spec(cmd.Flags().Changed, name)
	if err != nil {
		return err
	}
	r, err := queueapp.Run(cmd.Context(), queueapp.Request{Spec: s, LoadGiven: cmd.Flags().Changed("load")})
	if err != nil {
		return err
	}
	return render(stdout, r, o.out)
}

// spec builds the station from the model name and the flags that were set.
func (o queueOptions) spec(set func(string) bool, name string) (queue.Spec, error) {
	kind, m, k, err := queue.ParseModelName(name)
	if err != nil {
		return queue.Spec{}, badInput(err)
	}
	s := queue.Spec{Kind: kind, Lambda: o.lambda, Mu: o.mu, Servers: m, Capacity: k, SCV: o.scv}
	switch {
	case set("load") && (set("lambda") || set("mu") || set("service-time")):
		return s, badInputf("--load replaces --lambda and --mu: give one or the other")
	case set("load"):
		s.Lambda, s.Mu = o.load, 1
	case set("mu") && set("service-time"):
		return s, badInputf("give --mu or --service-time, not both")
	case set("service-time"):
		if !(o.serviceTime > 0) || math.IsInf(o.serviceTime, 0) {
			return s, badInputf("--service-time %v: must be a finite number > 0 seconds", o.serviceTime)
		}
		s.Mu = 1 / o.serviceTime
	}
	if !set("load") && !set("lambda") {
		return s, badInputf("%s needs the arrival rate --lambda (or the offered load --load)", name)
	}
	if !set("load") && !set("mu") && !set("service-time") && kind != queue.KindMMmHetero {
		return s, badInputf("%s needs --mu or --service-time (or --load)", name)
	}
	for _, p := range []struct {
		flag               string
		fromName, fromFlag int
		dst                *int
	}{{"servers", m, o.servers, &s.Servers}, {"capacity", k, o.capacity, &s.Capacity}} {
		if set(p.flag) {
			if p.fromName != 0 && p.fromName != p.fromFlag {
				return s, badInputf("--%s %d contradicts the model name %s", p.flag, p.fromFlag, name)
			}
			*p.dst = p.fromFlag
		}
	}
	if s.Mus, err = queue.ParseFloats("mus", o.mus); err != nil {
		return s, badInput(err)
	}
	s.Percentiles, err = percentFractions(o.percentiles)
	return s, err
}

// percentFractions reads --percentiles (in percent, each strictly between 0 and 100) as
// fractions, checking them in the flag's units.
func percentFractions(text string) ([]float64, error) {
	ps, err := queue.ParseFloats("percentiles", text)
	if err != nil {
		return nil, badInput(err)
	}
	for i, p := range ps {
		if !(p > 0 && p < 100) {
			return nil, badInputf("--percentiles %v: a percentile is in percent, strictly between 0 and 100 (e.g. 50,95,99.9)", p)
		}
		ps[i] = p / 100
	}
	return ps, nil
}
