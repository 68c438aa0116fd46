package pipelineapp

import (
	"bytes"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/pipeline"
)

// Flags are the pipeline command's options as given: the cluster sizes in the range
// syntax, the measured runs' CSV, the sort constants to fit comma-separated, the plot file
// (checked here, drawn by the command) and the sizing rule.
type Flags struct {
	P, Measured, Fit, Plot string
	Sizing                 app.SizingFlags
}

// Request checks the options (every problem into c, before any work), then reads the
// model of path and the measured runs with read into the request.
func (o Flags) Request(c *app.FlagCheck, read func(string) ([]byte, error), path string) (Request, error) {
	c.Output("plot", o.Plot, ".svg", ".png")
	ps, err := ranges.Parse("--p", o.P, ranges.Limits{Min: 1, Max: pipeline.MaxP, MaxCount: pipeline.MaxPoints})
	if err != nil {
		c.Errs = append(c.Errs, err)
	}
	if o.Fit != "" && o.Measured == "" {
		c.Add("--fit needs --measured")
	}
	o.Sizing.Check(c)
	if err := c.Err(); err != nil {
		return Request{}, err
	}
	q := Request{P: ps, Sizing: o.Sizing.Options(nil)}
	if o.Fit != "" {
		q.Fit = strings.Split(o.Fit, ",")
	}
	data, err := read(path)
	if err != nil {
		return q, err
	}
	if q.Model, q.Sort, err = pipeline.ParseModel(path, data); err != nil {
		return q, app.Input(err)
	}
	if o.Measured == "" {
		return q, nil
	}
	b, err := read(o.Measured)
	if err != nil {
		return q, err
	}
	q.Measured, err = pipeline.ReadMeasurements(o.Measured, bytes.NewReader(b))
	return q, app.Input(err)
}
