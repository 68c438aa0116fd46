package netbench

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/testfile"
)

func load(t *testing.T, name string) *Table {
	return testfile.Parse(t, "testdata/"+name, name, Parse)
}

// TestParseSamples: the four sample outputs (testdata/gen.py) parse with their row counts and
// first/last values as printed there.
func TestParseSamples(t *testing.T) {
	for _, tc := range []struct {
		file        string
		kind        Kind
		rows        int
		first, last Point
	}{
		{"osu_latency.txt", OSULatency, 24, Point{SizeBytes: 0, LatencyS: 1.60e-6}, Point{SizeBytes: 4194304, LatencyS: 367.98e-6}},
		{"osu_bw.txt", OSUBandwidth, 23, Point{SizeBytes: 1, BandwidthBytesPerS: 4.01e6}, Point{SizeBytes: 4194304}},
		{"osu_bibw.txt", OSUBiBandwidth, 23, Point{SizeBytes: 1}, Point{SizeBytes: 4194304}},
		{"imb_pingpong.txt", IMBPingPong, 24, Point{SizeBytes: 0, LatencyS: 1.59e-6}, Point{SizeBytes: 4194304}},
	} {
		tb := load(t, tc.file)
		if tb.Kind != tc.kind || len(tb.Points) != tc.rows {
			t.Errorf("%s: kind %s rows %d, want %s %d", tc.file, tb.Kind, len(tb.Points), tc.kind, tc.rows)
			continue
		}
		f, l := tb.Points[0], tb.Points[len(tb.Points)-1]
		if f.SizeBytes != tc.first.SizeBytes || l.SizeBytes != tc.last.SizeBytes ||
			(tc.first.LatencyS > 0 && math.Abs(f.LatencyS-tc.first.LatencyS) > 1e-12) ||
			(tc.first.BandwidthBytesPerS > 0 && math.Abs(f.BandwidthBytesPerS-tc.first.BandwidthBytesPerS) > 1e-3) ||
			(tc.last.LatencyS > 0 && tc.kind == OSULatency && math.Abs(l.LatencyS-tc.last.LatencyS) > 1e-11) {
			t.Errorf("%s: first %+v last %+v", tc.file, f, l)
		}
	}
}

// TestParseOMB7: OMB 7's layout (Datatype line, "Avg Latency(us)" and extra -f columns).
func TestParseOMB7(t *testing.T) {
	text := "# OSU MPI Latency Test v7.3\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n1                       1.75              1.70              1.80        10000\n2                       1.76              1.71              1.82        10000\n"
	tb, err := Parse("omb7.txt", strings.NewReader(text))
	if err != nil || len(tb.Points) != 2 || math.Abs(tb.Points[1].LatencyS-1.76e-6) > 1e-15 || tb.Points[1].Line != 5 {
		t.Fatalf("%+v %v", tb, err)
	}
}

// TestParseErrors: each broken output is refused with the file, the line and what was
// expected, as an input error.
func TestParseErrors(t *testing.T) {
	lat := "# OSU MPI Latency Test v5.6.3\n# Size          Latency (us)\n"
	imb := "# Benchmarking PingPong\n# #processes = 2\n       #bytes #repetitions      t[usec]   Mbytes/sec\n"
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "b.txt: not a benchmark output"},
		{"prose", "hello\n", "b.txt:1: expected an OSU title line"},
		{"collective", "# OSU MPI Allreduce Latency Test v7.0\n", "b.txt:1: OSU benchmark"},
		{"no header", "# OSU MPI Latency Test v5.6.3\n1 2.0\n", "b.txt:2: data row \"1 2.0\" before the \"# Size …\" header"},
		{"bad size", lat + "1 1.0\nx 2.0\n", "b.txt:4: size \"x\": want a whole number"},
		{"negative", lat + "1 -1.0\n", "b.txt:3: value \"-1.0\": want a finite number > 0"},
		{"NaN", lat + "1 NaN\n", "b.txt:3: value \"NaN\""},
		// finite but beyond the accepted range: the message says so (hostile review: 1e308 was
		// "want a finite number > 0")
		{"1e308", lat + "1 1e308\n", "b.txt:3: value \"1e308\": above 1e+15, the largest value accepted"},
		{"1e400", lat + "1 1e400\n", "b.txt:3: value \"1e400\": above 1e+15"},
		{"imb t 1e308", imb + "0 1000 1e308 0.00\n", "b.txt:4: t[usec] \"1e308\": above 1e+15"},
		{"order", lat + "8 1.0\n4 1.0\n", "b.txt:4: size 4 after 8 (line 3): sizes must increase"},
		{"short", lat + "8\n", "b.txt:3: expected \"size value\""},
		{"bw header", "# OSU MPI Bandwidth Test v5.6.3\n# Size          Latency (us)\n", "b.txt:2: osu_bw header"},
		{"no rows", lat, "osu_latency output without data rows"},
		{"two titles", lat + "1 1.0\n# OSU MPI Bandwidth Test v5.6.3\n", "b.txt:4: a second benchmark title"},
		{"imb no pingpong", "# Benchmarking PingPing\n", "IMB output without a PingPong benchmark"},
		{"imb header", "# Benchmarking PingPong\n#bytes reps t\n", "b.txt:2: IMB PingPong header"},
		{"imb t", imb + "0 1000 abc 0.00\n", "b.txt:4: t[usec] \"abc\""},
		{"imb reps", imb + "0 -5 1.0 0.00\n", "b.txt:4: #repetitions \"-5\""},
		{"long line", lat + strings.Repeat("1", MaxLineBytes+10) + "\n", "b.txt:3: cannot read"},
	} {
		_, err := Parse("b.txt", strings.NewReader(tc.text))
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"osu_latency.txt", "osu_bibw.txt", "imb_pingpong.txt"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := Parse("f.txt", strings.NewReader(string(b)))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		s, _ := tb.Samples()
		fit, err := FitLinear(s)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("fit: %v", err)
			}
			return
		}
		for _, v := range []float64{fit.LatencyS, fit.LatencyLowS, fit.LatencyHighS, fit.SecondsPerByte, fit.SecondsPerByteLow, fit.SecondsPerByteHigh, fit.RelRMS} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("fit %+v", fit)
			}
		}
		if !(fit.LatencyLowS <= fit.LatencyS && fit.LatencyS <= fit.LatencyHighS) {
			t.Fatalf("interval [%g, %g] misses %g", fit.LatencyLowS, fit.LatencyHighS, fit.LatencyS)
		}
	})
}
