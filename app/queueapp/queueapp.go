// Package queueapp answers "how does this one queueing station behave?": the closed-form
// single-station formulas of package queue (M/M/1 … Erlang C) with the answer and the
// table the queue command renders.
package queueapp

import (
	"context"
	"errors"
	"fmt"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/queue"
	"github.com/clusterperf/clusterperf/report"
)

// Request is one station: the parsed model and rates (queue.Spec). LoadGiven says the
// rates came from an offered load in Erlangs (λ = A, μ = 1), which the notes then say.
type Request struct {
	Spec      queue.Spec
	LoadGiven bool
}

// Result is the queue question's one result value: the library's result, rendered as is
// in JSON, with its answer.
type Result struct {
	report.Answered
	*queue.Result
}

// Run solves the station (queue.Solve); an input the formulas refuse is fault.ErrInput.
func Run(ctx context.Context, q Request) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
	}
	r, err := queue.Solve(q.Spec)
	if err != nil {
		if errors.Is(err, fault.ErrInput) {
			return nil, app.Input(err)
		}
		return nil, err
	}
	if q.LoadGiven {
		r.Notes = append(r.Notes, "--load: λ = A and μ = 1, so rates are per mean service time and times are in mean service times")
	}
	return &Result{report.Answered{Answer: answer.Queue(r)}, r}, nil
}

func (r *Result) NoteLines() []string { return r.Notes }

// Tables: one "quantities" table (quantity, value).
func (r *Result) Tables() []*report.Table {
	t := &report.Table{Name: "quantities", Header: []string{"quantity", "value"},
		Title: r.Model + " — " + r.Method + map[bool]string{true: " (exact)", false: " (approximate)"}[r.Exact]}
	t.Add("utilization", r.Utilization)
	t.Add("busy_servers", r.BusyServers)
	t.Add("throughput_per_s", r.Throughput)
	t.Add("jobs_in_system", r.Jobs)
	t.Add("jobs_waiting", r.JobsWaiting)
	t.Add("response_time_s", r.ResponseTime)
	t.Add("waiting_time_s", r.WaitingTime)
	t.Add("p_empty", r.PEmpty)
	if r.PWait != nil {
		t.Add("p_wait", *r.PWait)
	}
	if r.PBlock != nil {
		t.Add("p_block", *r.PBlock)
	}
	for _, p := range r.Percentiles {
		t.Add(fmt.Sprintf("response_time_p%s_s", report.Num(100*p.P)), p.ResponseTime)
	}
	return []*report.Table{t}
}

// Figure: the mean response time split into service and waiting.
func (r *Result) Figure() ([]report.Panel, error) {
	p, err := report.Bars(r.Model+": mean response time = service + waiting", "s", []string{"service", "waiting", "response"},
		[]float64{r.ResponseTime - r.WaitingTime, r.WaitingTime, r.ResponseTime}, []int{1}, 0)
	return []report.Panel{p}, err
}
