package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/queueapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/queue"
)

type queueOptions struct {
	queueapp.Flags
	out outOptions
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
	cmdline.RateVar(f, &o.Lambda, "lambda", "arrival rate λ (jobs/s, or with a unit: 48/min, 2880/h)")
	cmdline.RateVar(f, &o.Mu, "mu", "service rate μ of one server (jobs/s, or 60/min)")
	cmdline.DurationVar(f, &o.ServiceTime, "service-time", "mean service time 1/μ (s, or with a unit: 5ms, 2min), instead of --mu")
	f.Float64Var(&o.Load, "load", 0, "offered load λ/μ in Erlangs, instead of --lambda and --mu")
	f.IntVar(&o.Servers, "servers", 0, "number of servers m")
	f.IntVar(&o.Capacity, "capacity", 0, "capacity K: most jobs in the station, in service and waiting")
	f.Float64Var(&o.SCV, "scv", 1, "M/G/1: squared coefficient of variation of the service time (1 exponential, 0 deterministic)")
	f.StringVar(&o.Mus, "mus", "", "hetero: the servers' service rates, comma-separated (jobs/s)")
	f.StringVar(&o.Percentiles, "percentiles", "50,90,95,99", "response-time percentiles to report, in percent, comma-separated (empty: none)")
	addOutFlags(cmd, &o.out)
	return cmd
}

func runQueue(cmd *cobra.Command, o queueOptions, name string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	if err := c.Err(); err != nil {
		return err
	}
	q, err := o.Request(cmd.Flags().Changed, name)
	if err != nil {
		return err
	}
	r, err := queueapp.Run(cmd.Context(), q)
	if err != nil {
		return err
	}
	return render(stdout, r, o.out)
}
