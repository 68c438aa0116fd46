package mpip

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// NetPoint is one row of a network table: latency (s) and bandwidth (bytes/s) at a key, the
// number of processes P or the message size in bytes.
type NetPoint struct {
	Key       float64
	Latency   float64
	Bandwidth float64
}

// Network gives latency and bandwidth for a run, either constant or linearly interpolated
// in a table by P or by message size (004 interpolates its measured network figures).
type Network struct {
	By     string // "const", "p" or "size"
	Points []NetPoint
}

// ConstNetwork is a network with fixed latency (s) and bandwidth (bytes/s).
func ConstNetwork(lat, bw float64) Network {
	return Network{By: "const", Points: []NetPoint{{Latency: lat, Bandwidth: bw}}}
}

// At returns latency and bandwidth for a run with p processes and mean message size size
// (bytes), and a note when the table had to be extrapolated (held at its end values).
func (n Network) At(p int, size float64) (lat, bw float64, note string) {
	if n.By == "const" || len(n.Points) == 1 {
		return n.Points[0].Latency, n.Points[0].Bandwidth, ""
	}
	x := float64(p)
	if n.By == "size" {
		x = size
	}
	pts := n.Points
	if x <= pts[0].Key {
		if x < pts[0].Key {
			note = fmt.Sprintf("network table starts at %s = %g; using its first row for %g", n.By, pts[0].Key, x)
		}
		return pts[0].Latency, pts[0].Bandwidth, note
	}
	last := pts[len(pts)-1]
	if x >= last.Key {
		if x > last.Key {
			note = fmt.Sprintf("network table ends at %s = %g; using its last row for %g", n.By, last.Key, x)
		}
		return last.Latency, last.Bandwidth, note
	}
	i := sort.Search(len(pts), func(i int) bool { return pts[i].Key >= x })
	a, b := pts[i-1], pts[i]
	f := (x - a.Key) / (b.Key - a.Key)
	return a.Latency + f*(b.Latency-a.Latency), a.Bandwidth + f*(b.Bandwidth-a.Bandwidth), ""
}

// ReadNetwork reads a CSV table with a header naming a key column (p or size) and the
// columns latency and bandwidth; values may carry units (5us, 200MB/s, 64KB).
func ReadNetwork(file string, r io.Reader) (Network, error) {
	n := Network{}
	aliases := map[string][]string{"p": {"p", "procs", "ranks"}, "size": {"size", "bytes", "message_size"}, "latency": {"latency", "lat"}, "bandwidth": {"bandwidth", "bw"}}
	check := spec.OneOf("p", "size", "p (processes) or size (message bytes)", &n.By)
	err := spec.ReadCSVChecked(file, r, aliases, []string{"latency", "bandwidth"}, check, func(row spec.Row) error {
		var k float64
		switch n.By {
		case "p":
			v, err := strconv.Atoi(row.Get("p"))
			if err != nil || v < 1 {
				return row.Errorf("p = %q must be a whole number ≥ 1", row.Get("p"))
			}
			k = float64(v)
		default:
			v, err := units.Bytes(row.Get("size"))
			if err != nil {
				return row.Errorf("size: %v", err)
			}
			k = v
		}
		lat, err1 := units.Duration(row.Get("latency"))
		bw, err2 := units.Bandwidth(row.Get("bandwidth"))
		if err1 != nil || err2 != nil {
			return row.Errorf("%v", errors.Join(err1, err2))
		}
		n.Points = append(n.Points, NetPoint{Key: k, Latency: lat, Bandwidth: bw})
		return nil
	})
	if err != nil {
		return n, err
	}
	sort.Slice(n.Points, func(i, j int) bool { return n.Points[i].Key < n.Points[j].Key })
	var errs []error
	for i := 1; i < len(n.Points); i++ {
		if n.Points[i].Key == n.Points[i-1].Key {
			errs = append(errs, fmt.Errorf("%s: %s = %g appears twice", file, n.By, n.Points[i].Key))
		}
	}
	return n, errors.Join(errs...)
}
