package historyapp

import (
	"time"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/history"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/scaling"
)

// Flags are the history command's options as given: the job filter (times as
// YYYY-MM-DD[THH:MM:SS]), the study, the scaling kind, the task counts to predict in the
// range syntax, the sizing limit and rule.
type Flags struct {
	Study                                        int
	User, Name, Command, Partition, Since, Until string
	Scaling, Predict                             string
	PMax                                         int
	Sizing                                       app.SizingFlags
}

// Request checks the options (every problem into c, before any work) and builds the
// request for the sacct output in file ("" : run sacct).
func (o Flags) Request(c *app.FlagCheck, file string) (Request, error) {
	o.Sizing.Check(c)
	f := history.Filter{User: o.User, Name: o.Name, Command: o.Command, Partition: o.Partition}
	f.Since = timeFlag(c, "since", o.Since)
	f.Until = timeFlag(c, "until", o.Until)
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		c.Add("--since %s is not before --until %s", o.Since, o.Until)
	}
	if o.Scaling != "" && o.Scaling != "strong" && o.Scaling != "weak" {
		c.Add("--scaling %q: allowed strong or weak", o.Scaling)
	}
	if o.Study < 0 {
		c.Add("--study %d: want a study id from the studies table (1, 2, …)", o.Study)
	}
	if o.PMax < 0 || o.PMax > scaling.MaxPredictP {
		c.Add("--pmax %d: allowed 0 (twice the largest task count) or 1 … 2^30", o.PMax)
	}
	var ps []int
	if o.Predict != "" {
		ps = c.Range("predict", o.Predict, ranges.Limits{Min: 1, Max: scaling.MaxPredictP, MaxCount: app.MaxPredictions})
	}
	q := Request{File: file, Filter: f, Study: o.Study, Options: history.Options{Scaling: o.Scaling, Predict: ps, PMax: o.PMax, Sizing: o.Sizing.Options(nil)}}
	return q, c.Err()
}

// timeFlag reads --name's time, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (zero when empty).
func timeFlag(c *app.FlagCheck, name, v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	c.Add("--%s %q: want YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", name, v)
	return time.Time{}
}
