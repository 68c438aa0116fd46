package cubeapp

import (
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/units"
)

// Flags are the cube command's options as given: --param, --fix's name=value pairs,
// --metric's names and --values, comma-separated; the network of --latency and
// --bandwidth as times and rates with units.
type Flags struct {
	Param, Fix, Metrics, Values string
	Latency, Bandwidth          string
}

// Request reads the options into the request for the profiles at paths, every problem
// into c (before any work).
func (o Flags) Request(c *app.FlagCheck, paths []string) (Request, error) {
	q := Request{Paths: paths, Param: o.Param, Fix: map[string]float64{}}
	if o.Fix != "" {
		for _, kv := range strings.Split(o.Fix, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			x, err := strconv.ParseFloat(v, 64)
			if !ok || err != nil || k == "" {
				c.Add("--fix %q: want name=value pairs such as y=1,z=1", o.Fix)
				break
			}
			q.Fix[k] = x
		}
	}
	if o.Metrics != "" {
		q.Metrics = strings.Split(o.Metrics, ",")
	}
	if o.Values != "" {
		for _, v := range strings.Split(o.Values, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				c.Add("--values %q: %q is not a number", o.Values, v)
				break
			}
			q.Values = append(q.Values, x)
		}
	}
	o.network(c, &q)
	return q, c.Err()
}

// network reads --latency and --bandwidth (both or neither) into q.
func (o Flags) network(c *app.FlagCheck, q *Request) {
	if (o.Latency == "") != (o.Bandwidth == "") {
		c.Add("--latency and --bandwidth go together (004's network)")
		return
	}
	if o.Latency == "" {
		return
	}
	var e error
	q.Network = true
	if q.Latency, e = units.Duration(o.Latency); e != nil || !(q.Latency >= 0) {
		c.Add("--latency %q: want a time such as 2us", o.Latency)
	}
	if q.Bandwidth, e = units.Bandwidth(o.Bandwidth); e != nil || !(q.Bandwidth > 0) {
		c.Add("--bandwidth %q: want a rate such as 10GB/s", o.Bandwidth)
	}
}
