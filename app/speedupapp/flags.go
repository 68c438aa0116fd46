package speedupapp

import (
	"bytes"
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/spmd"
)

// Flags are the speedup command's options as given: the grid --p and --d in the range
// syntax, the solver, the measured runs' CSV, the plot file (checked here, drawn by the
// command), the sizing rule, --validate and --all.
type Flags struct {
	P, D, Solver, Measured, Plot string
	Sizing                       app.SizingFlags
	Validate, All                bool
}

// Check records the options' problems in c and returns the grid. validate records the
// problems of the simulation options (called with --validate only); study records the
// sharding options' problems and says whether a sharded study is asked for.
func (o Flags) Check(c *app.FlagCheck, validate func(*app.FlagCheck), study func(*app.FlagCheck) bool) (ps, ds []int) {
	c.Output("plot", o.Plot, ".svg", ".png")
	if o.Solver != "recursive" && o.Solver != "non-recursive" {
		c.Add("--solver %q: allowed recursive (default) or non-recursive", o.Solver)
	}
	ps = c.Range("p", o.P, ranges.Limits{Min: 1, Max: 1 << 30, MaxCount: spmd.MaxSurfacePoints})
	ds = c.Range("d", o.D, ranges.Limits{Min: 1, Max: 1 << 30, MaxCount: spmd.MaxSurfacePoints})
	if float64(len(ps))*float64(len(ds)) > spmd.MaxSurfacePoints {
		c.Add("--p %s × --d %s is %d × %d points, more than the limit %d", o.P, o.D, len(ps), len(ds), spmd.MaxSurfacePoints)
	}
	o.Sizing.Check(c)
	if o.Validate {
		validate(c)
	}
	if study(c) && !o.Validate {
		c.Add("--shard/--slurm split the replications of --validate; the model alone is not a study")
	}
	return ps, ds
}

// Prepared is a speedup run before the simulation of --validate: the model, its evaluator,
// the result, and the (p, d) to simulate (nil: no validation).
type Prepared struct {
	Model *spmd.Model
	Eval  *spmd.Evaluator
	Out   *Result
	PDs   [][2]int
	// Stopped is the interruption (fault.ErrInterrupted) that cut the surface short: Out
	// holds the values of p finished, marked partial.
	Stopped error
}

// Output is how the result will be written: the format, and whether an HTML page embeds it
// (both bound the work allowed, Budget).
type Output struct {
	Format     string
	WithReport bool
}

// Prepare bounds the work (Budget), reads the model and the measured runs with read,
// evaluates the grid ps × ds (Run; progress told as values of p finish), says when --all
// changes nothing or the table is condensed, and picks the points --validate simulates.
func (o Flags) Prepare(ctx context.Context, read func(string) ([]byte, error), path string, ps, ds []int, out Output, progress func(done, total int)) (*Prepared, error) {
	full := o.All || len(ps)*len(ds) <= SummaryRows
	if err := Budget(len(ps)*len(ds), o.P, o.D, out.Format, full, out.WithReport); err != nil {
		return nil, err
	}
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	sp := &Prepared{}
	if sp.Model, err = spmd.ParseModel(path, data); err != nil {
		return nil, app.Input(err)
	}
	q := Request{Model: sp.Model, P: ps, D: ds, Sizing: o.Sizing.Options(nil), MeasuredFile: o.Measured,
		Progress: progress, NonRecursive: o.Solver == "non-recursive"}
	if q.Measured, err = o.measured(read); err != nil {
		return nil, err
	}
	sp.Out, sp.Eval, sp.Stopped = Run(ctx, q)
	if sp.Out == nil {
		return nil, sp.Stopped
	}
	if sp.Stopped != nil {
		return sp, nil
	}
	pts := sp.Out.Points
	if o.All && (out.Format != "table" || len(pts) <= SummaryRows) {
		sp.Out.Notes = append(sp.Out.Notes, fmt.Sprintf("--all changes nothing here: the table is condensed only beyond %d points in table format, and JSON and CSV always have every point", SummaryRows))
	}
	if out.Format == "table" && !o.All && len(pts) > SummaryRows {
		sp.Out.Condensed = true
		sp.Out.Notes = append(sp.Out.Notes, fmt.Sprintf("%d (p, d) points: the table shows the corners, the best point and where each bottleneck region starts; --all prints every point (JSON and CSV always have them)", len(pts)))
	}
	if o.Validate && sp.Model.Arch != spmd.OptimisticAIO && sp.Model.Arch != spmd.OptimisticSIO {
		sp.PDs = ValidationPoints(sp.Out.Best, pts[0], pts[len(pts)-1])
	}
	return sp, nil
}

// measured reads the --measured CSV (nil: no flag).
func (o Flags) measured(read func(string) ([]byte, error)) ([]spmd.Measurement, error) {
	if o.Measured == "" {
		return nil, nil
	}
	b, err := read(o.Measured)
	if err != nil {
		return nil, err
	}
	meas, err := spmd.ReadMeasurements(o.Measured, bytes.NewReader(b))
	return meas, app.Input(err)
}
