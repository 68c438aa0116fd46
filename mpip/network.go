package mpip

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

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
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return Network{}, fmt.Errorf("%s:1: want a header with columns p (or size), latency, bandwidth: %v", file, err)
	}
	ik, il, ib := -1, -1, -1
	n := Network{}
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "p", "procs", "ranks":
			ik, n.By = i, "p"
		case "size", "bytes", "message_size":
			ik, n.By = i, "size"
		case "latency", "lat":
			il = i
		case "bandwidth", "bw":
			ib = i
		}
	}
	if ik < 0 || il < 0 || ib < 0 {
		return Network{}, fmt.Errorf("%s:1: header %q needs columns p (or size), latency and bandwidth", file, strings.Join(head, ","))
	}
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Network{}, fmt.Errorf("%s: %v", file, err) // csv.ParseError names the line
		}
		line, _ := cr.FieldPos(0)
		if len(rec) <= max(ik, il, ib) {
			errs = append(errs, fmt.Errorf("%s:%d: too few columns", file, line))
			continue
		}
		var k float64
		if n.By == "p" {
			v, err := strconv.Atoi(strings.TrimSpace(rec[ik]))
			if err != nil || v < 1 {
				errs = append(errs, fmt.Errorf("%s:%d: p = %q must be a whole number ≥ 1", file, line, rec[ik]))
				continue
			}
			k = float64(v)
		} else if k, err = units.Bytes(rec[ik]); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: size: %v", file, line, err))
			continue
		}
		lat, err1 := units.Duration(rec[il])
		bw, err2 := units.Bandwidth(rec[ib])
		if err1 != nil || err2 != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %v", file, line, errors.Join(err1, err2)))
			continue
		}
		n.Points = append(n.Points, NetPoint{Key: k, Latency: lat, Bandwidth: bw})
	}
	if len(n.Points) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no rows", file))
	}
	sort.Slice(n.Points, func(i, j int) bool { return n.Points[i].Key < n.Points[j].Key })
	for i := 1; i < len(n.Points); i++ {
		if n.Points[i].Key == n.Points[i-1].Key {
			errs = append(errs, fmt.Errorf("%s: %s = %g appears twice", file, n.By, n.Points[i].Key))
		}
	}
	return n, errors.Join(errs...)
}
