// Package netbench reads the output of the network micro-benchmarks users run on clusters —
// the OSU micro-benchmarks osu_latency, osu_bw and osu_bibw, and the Intel MPI Benchmarks'
// PingPong — and fits the point-to-point message time t(n) = t_s + n/B (startup latency t_s
// in s, asymptotic bandwidth B in bytes/s) by weighted least squares with Student-t
// intervals, optionally piecewise by message-size range (eager and rendezvous protocols).
// The fitted t_s and B are the Lat and BW of 004's switch delay D_0 = L/BW + Lat (package
// mpip).
//
// Formats (testdata/README.md says where each comes from):
//
//	OSU:  "# OSU MPI Latency Test v5.6.3" / "# Size          Latency (us)" / "0   1.52" …
//	      "# OSU MPI Bandwidth Test …", "# OSU MPI Bi-Directional Bandwidth Test …" with
//	      "# Size      Bandwidth (MB/s)"; OMB 7 prints "Avg Latency(us)" and, with -f, more
//	      columns (Min, Max, Iterations); MB = 10^6 bytes.
//	IMB:  "# Benchmarking PingPong" then "#bytes #repetitions t[usec] Mbytes/sec [Msg/sec]";
//	      t is half the round trip (one-way), in µs.
package netbench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Kind names the benchmark a table comes from.
type Kind string

// The benchmarks Parse recognises; the value is the table's "kind" in JSON.
const (
	OSULatency     Kind = "osu_latency"  // osu_latency: one-way time by message size
	OSUBandwidth   Kind = "osu_bw"       // osu_bw: streaming bandwidth, one direction
	OSUBiBandwidth Kind = "osu_bibw"     // osu_bibw: bandwidth of both directions summed
	IMBPingPong    Kind = "imb_pingpong" // IMB PingPong: half the round trip, and its bandwidth
)

// Limits of the readers: one line, and the rows of a table.
const (
	MaxLineBytes = 64 << 10
	MaxRows      = 100_000
)

// Point is one row of a benchmark table.
type Point struct {
	SizeBytes float64 `json:"size_bytes"`
	// LatencyS is the one-way time of one message (osu_latency; IMB PingPong's t[usec], half
	// the round trip), s; 0 for bandwidth tables.
	LatencyS float64 `json:"latency_s,omitempty"`
	// BandwidthBytesPerS is the table's bandwidth (osu_bw, osu_bibw: both directions summed),
	// bytes/s; 0 for latency tables.
	BandwidthBytesPerS float64 `json:"bandwidth_bytes_per_s,omitempty"`
	Line               int     `json:"line"`
}

// Table is a parsed benchmark output.
type Table struct {
	File   string   `json:"file"`
	Kind   Kind     `json:"kind"`
	Title  string   `json:"title"`
	Points []Point  `json:"points"`
	Notes  []string `json:"notes,omitempty"`
}

// ParseError is a problem in a benchmark file at a line (0: the whole file). It is bad input:
// errors.Is(err, fault.ErrInput) holds.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Is makes a ParseError an input error.
func (e *ParseError) Is(target error) bool { return target == fault.ErrInput }

// Parse reads one benchmark output, recognising the format from its header: an OSU title line
// ("# OSU MPI Latency Test", "# OSU MPI Bandwidth Test", "# OSU MPI Bi-Directional Bandwidth
// Test") or IMB's "# Benchmarking PingPong" block (other IMB benchmarks in the same output
// are skipped). Sizes must be whole numbers ≥ 0 and strictly increasing; times and bandwidths
// finite and > 0.
func Parse(file string, r io.Reader) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLineBytes)
	p := &parser{t: &Table{File: file}}
	for sc.Scan() {
		p.line++
		if err := p.feed(strings.TrimSpace(sc.Text())); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{file, p.line + 1, fmt.Sprintf("cannot read: %v (a line may hold at most %d bytes)", err, MaxLineBytes)}
	}
	switch {
	case p.t.Kind == "" && p.sawIMB:
		return nil, &ParseError{file, 0, "IMB output without a PingPong benchmark: only PingPong is read (run IMB-MPI1 PingPong)"}
	case p.t.Kind == "":
		return nil, &ParseError{file, 0, `not a benchmark output clusterperf reads: expected an OSU title line ("# OSU MPI Latency Test", "# OSU MPI Bandwidth Test", "# OSU MPI Bi-Directional Bandwidth Test") or IMB's "# Benchmarking PingPong"`}
	case len(p.t.Points) == 0:
		return nil, &ParseError{file, 0, fmt.Sprintf("%s output without data rows", p.t.Kind)}
	}
	if p.t.Kind == OSUBiBandwidth {
		p.t.Notes = append(p.t.Notes, "osu_bibw reports the bandwidth of both directions together")
	}
	return p.t, nil
}

type parser struct {
	t       *Table
	line    int
	sawIMB  bool
	inIMB   bool // inside the PingPong block
	imbHead bool // its column header was seen
	osuCol  int  // column of the value in OSU rows (1: the first after Size)
	osuHead bool
	done    bool // IMB PingPong block finished
}

func (p *parser) errf(format string, a ...any) error {
	return &ParseError{p.t.File, p.line, fmt.Sprintf(format, a...)}
}

func (p *parser) feed(l string) error {
	if strings.HasPrefix(l, "# OSU ") {
		if p.t.Kind != "" {
			return p.errf("a second benchmark title %q: give one benchmark output per file", clip(l))
		}
		switch {
		case strings.Contains(l, "Bi-Directional Bandwidth"):
			p.t.Kind = OSUBiBandwidth
		case strings.Contains(l, "MPI Bandwidth Test") || strings.Contains(l, "MPI-CUDA Bandwidth Test"):
			p.t.Kind = OSUBandwidth
		case strings.Contains(l, "MPI Latency Test") || strings.Contains(l, "MPI-CUDA Latency Test"):
			p.t.Kind = OSULatency
		default:
			return p.errf("OSU benchmark %q is not read: only osu_latency, osu_bw and osu_bibw (point-to-point) are", clip(l))
		}
		p.t.Title = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		return nil
	}
	if strings.Contains(l, "Intel(R) MPI Benchmarks") || strings.HasPrefix(l, "# Benchmarking ") {
		p.sawIMB = true
	}
	if p.t.Kind == "" && !p.sawIMB {
		if l == "" || strings.HasPrefix(l, "#") {
			return nil
		}
		return p.errf("expected an OSU title line or IMB output before data, got %q", clip(l))
	}
	if p.sawIMB && (p.t.Kind == "" || p.t.Kind == IMBPingPong) {
		return p.imb(l)
	}
	return p.osu(l)
}

func (p *parser) osu(l string) error {
	if l == "" {
		return nil
	}
	if strings.HasPrefix(l, "#") {
		h := strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if strings.HasPrefix(h, "Size") {
			want := "Latency"
			if p.t.Kind != OSULatency {
				want = "Bandwidth (MB/s)"
			}
			if !strings.Contains(h, want) {
				return p.errf("%s header %q: expected a column %q", p.t.Kind, clip(l), want)
			}
			p.osuHead, p.osuCol = true, 1
		}
		return nil
	}
	f, n, err := p.dataRow(l, p.osuHead, "# Size …", "size value", 2)
	if err != nil {
		return err
	}
	v, err := positive(f[p.osuCol])
	if err != nil {
		return p.errf("value %q: %v", f[p.osuCol], err)
	}
	pt := Point{SizeBytes: n, Line: p.line}
	if p.t.Kind == OSULatency {
		pt.LatencyS = v * 1e-6
	} else {
		pt.BandwidthBytesPerS = v * 1e6
	}
	return p.add(pt)
}

func (p *parser) imb(l string) error {
	if p.done {
		return nil
	}
	if strings.HasPrefix(l, "# Benchmarking ") {
		if p.inIMB {
			p.done = true
			return nil
		}
		if strings.TrimSpace(strings.TrimPrefix(l, "# Benchmarking ")) == "PingPong" {
			p.inIMB, p.t.Kind, p.t.Title = true, IMBPingPong, "IMB PingPong"
		}
		return nil
	}
	if !p.inIMB {
		return nil
	}
	if strings.HasPrefix(l, "#bytes") {
		f := strings.Fields(l)
		if len(f) < 4 || f[1] != "#repetitions" || f[2] != "t[usec]" {
			return p.errf("IMB PingPong header %q: expected \"#bytes #repetitions t[usec] Mbytes/sec\"", clip(l))
		}
		p.imbHead = true
		return nil
	}
	if l == "" || strings.HasPrefix(l, "#") {
		if p.imbHead && len(p.t.Points) > 0 {
			p.done = true // the block ends at the first blank or comment line after its rows
		}
		return nil
	}
	const columns = "#bytes #repetitions t[usec] Mbytes/sec"
	f, n, err := p.dataRow(l, p.imbHead, columns, columns, 4)
	if err != nil {
		return err
	}
	if _, err := size(f[1]); err != nil {
		return p.errf("#repetitions %q: %v", f[1], err)
	}
	t, err := positive(f[2])
	if err != nil {
		return p.errf("t[usec] %q: %v", f[2], err)
	}
	return p.add(Point{SizeBytes: n, LatencyS: t * 1e-6, Line: p.line})
}

// dataRow splits the data row l of a table into its fields, at least min of them, and reads
// the first as the message size in bytes; refused (naming the line) before the table's
// header (headed false) or when it is short. header and columns name the header line and
// the row's columns in the messages.
func (p *parser) dataRow(l string, headed bool, header, columns string, min int) ([]string, float64, error) {
	if !headed {
		return nil, 0, p.errf("data row %q before the %q header", clip(l), header)
	}
	f := strings.Fields(l)
	if len(f) < min {
		return nil, 0, p.errf("expected %q, got %q", columns, clip(l))
	}
	n, err := size(f[0])
	if err != nil {
		return nil, 0, p.errf("%s %q: %v", strings.Fields(columns)[0], f[0], err)
	}
	return f, n, nil
}

func (p *parser) add(pt Point) error {
	if len(p.t.Points) >= MaxRows {
		return p.errf("more than %d rows", MaxRows)
	}
	if k := len(p.t.Points); k > 0 && pt.SizeBytes <= p.t.Points[k-1].SizeBytes {
		return p.errf("size %g after %g (line %d): sizes must increase", pt.SizeBytes, p.t.Points[k-1].SizeBytes, p.t.Points[k-1].Line)
	}
	p.t.Points = append(p.t.Points, pt)
	return nil
}

func size(s string) (float64, error) {
	v, err := strconv.ParseUint(s, 10, 53)
	if err != nil {
		return 0, fmt.Errorf("want a whole number of bytes from 0 to 2^53")
	}
	return float64(v), nil
}

// maxValue is the largest latency (µs) or bandwidth (MB/s) accepted: 1e15 µs is 32 years,
// 1e15 MB/s a thousand times any network; larger values are typos or garbage.
const maxValue = 1e15

// positive reads a latency (µs) or bandwidth (MB/s) value in (0, maxValue].
func positive(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if (err == nil || errors.Is(err, strconv.ErrRange)) && v > maxValue { // also "1e400", "+Inf"
		return 0, fmt.Errorf("above %g, the largest value accepted (%g µs is 32 years; %g MB/s a thousand times any network)", maxValue, maxValue, maxValue)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !(v > 0) {
		return 0, fmt.Errorf("want a finite number > 0")
	}
	return v, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
