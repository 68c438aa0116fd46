package extrap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

func read(t testing.TB, name string) *Experiment {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	e, err := ReadFile(name, b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e
}

// TestExamples: every Extra-P example (testdata/README.md) is read with the parameters,
// points and series its file holds (counted by hand from the files), and the one-parameter
// ones are modelled, one model per region and metric.
func TestExamples(t *testing.T) {
	for _, c := range []struct {
		file           string
		params, points int
		series         int
		model          bool
	}{
		{"one_parameter_1.txt", 1, 5, 1, true},
		{"one_parameter_2.txt", 1, 5, 0, true}, // series counted below
		{"experiment2.txt", 1, 5, 4, true},
		{"relearn_data.txt", 2, 25, 0, true}, // two parameters: joint models in (p, n)
		{"json_test_input.jsonl", 1, 5, 1, true},
		{"input_1.jsonl", 2, 25, 1, true},
		{"input1.json", 1, 5, 1, true},
		{"input2.json", 2, 5, 4, true}, // {sweep, sweep2} × {time, visits}
	} {
		e := read(t, c.file)
		if len(e.Parameters) != c.params || len(e.Points) != c.points || (c.series > 0 && len(e.Series) != c.series) {
			t.Errorf("%s: %d parameters, %d points, %d series; want %d, %d, %d", c.file, len(e.Parameters), len(e.Points), len(e.Series), c.params, c.points, c.series)
		}
		m, err := Model(context.Background(), e)
		if !c.model {
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("%s: multi-parameter Model: %v, want a refusal", c.file, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(m.Models)+len(m.Notes) != len(e.Series) {
			t.Errorf("%s: %d models + %d notes for %d series", c.file, len(m.Models), len(m.Notes), len(e.Series))
		}
		for _, rm := range m.Models {
			if len(e.Parameters) == 2 {
				v, err := rm.PN.Predict(1024, 1e4)
				lo, hi, ierr := rm.PN.Interval(1024, 1e4)
				if err != nil || ierr != nil || !(v > 0) || !(lo < v && v < hi) || rm.Fit != nil {
					t.Errorf("%s %s: joint prediction %v in %v … %v: %v %v", c.file, rm.Region, v, lo, hi, err, ierr)
				}
				continue
			}
			pr, err := rm.Fit.Predict(2 * rm.Fit.MaxP)
			if err != nil || !(pr.TimeS > 0) {
				t.Errorf("%s %s: prediction %v %v", c.file, rm.Region, pr, err)
			}
		}
	}
}

// TestFirstToStop (hostile7 P2-3: a growing time was said to "stop scaling" at its first
// measured value): in experiment2.txt met1 is 4.0 at every p (flat) and met2–met4 grow ~4×
// per doubling, so no region falls and none stops; in one_parameter_1.txt compute grows
// with x (82 s at x = 20 → 178 s at 30), so it does not stop scaling either, and its
// formula says x, not p.
func TestFirstToStop(t *testing.T) {
	m, err := Model(context.Background(), read(t, "experiment2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	trends := map[string]string{}
	for _, rm := range m.Models {
		trends[rm.Region] = rm.Trend
	}
	if m.FirstToStop != "" || m.Falling != 0 || m.Growing != 3 || trends["met1"] != "flat" || trends["met2"] != "grows" {
		t.Errorf("experiment2: first to stop %q at %d, falling %d, growing %d, trends %v; want none, 0, 3, met1 flat", m.FirstToStop, m.FirstToStopAt, m.Falling, m.Growing, trends)
	}
	m, err = Model(context.Background(), read(t, "one_parameter_1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Models[0].Formula
	if m.FirstToStop != "" || m.Models[0].Trend != "grows" || m.Models[0].StopsScalingAt != 0 || !strings.Contains(f, "x") || strings.Contains(f, "p") {
		t.Errorf("one_parameter_1: first to stop %q, trend %q at %d, formula %q; want none, grows, an x formula", m.FirstToStop, m.Models[0].Trend, m.Models[0].StopsScalingAt, f)
	}
}

// TestFirstToStopPN: two parameters (issue 30: where a region stops scaling was searched
// in one-parameter experiments only). A synthetic p × n experiment (p = 1 … 64, n = 10⁴,
// 2·10⁴, 4·10⁴; values from the laws below, exact) is walked along p at the largest n
// measured at the largest p, 4·10⁴: compute = n/p halves at every doubling (falls, never
// stops within 2·64); comm = 10 + 0.0015·n/p = 10 + 60/p there, whose doubling gain
// (10 + 30/p)/(10 + 60/p) first exceeds 0.9 at p = 32 (0.864 at 16, 0.921 at 32); allreduce =
// 0.05·log2(2p)·n/10⁴ grows. So comm stops first, at 32.
func TestFirstToStopPN(t *testing.T) {
	var b strings.Builder
	b.WriteString("PARAMETER p\nPARAMETER n\nPOINTS")
	ps, ns := []float64{1, 2, 4, 8, 16, 32, 64}, []float64{1e4, 2e4, 4e4}
	for _, p := range ps {
		for _, n := range ns {
			fmt.Fprintf(&b, " ( %g %g )", p, n)
		}
	}
	b.WriteString("\nMETRIC time\n")
	for _, r := range []struct {
		name string
		f    func(p, n float64) float64
	}{
		{"compute", func(p, n float64) float64 { return n / p }},
		{"comm", func(p, n float64) float64 { return 10 + 0.0015*n/p }},
		{"allreduce", func(p, n float64) float64 { return 0.05 * math.Log2(2*p) * n / 1e4 }},
	} {
		fmt.Fprintf(&b, "REGION %s\n", r.name)
		for _, p := range ps {
			for _, n := range ns {
				fmt.Fprintf(&b, "DATA %.12g\n", r.f(p, n))
			}
		}
	}
	e, err := ReadText("pn.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Model(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, rm := range m.Models {
		got[rm.Region] = fmt.Sprintf("%s %d", rm.Trend, rm.StopsScalingAt)
	}
	want := map[string]string{"compute": "falls 0", "comm": "falls 32", "allreduce": "grows 0"}
	if !reflect.DeepEqual(got, want) || m.FirstToStop != "comm" || m.FirstToStopAt != 32 || m.TrendAtN != 4e4 {
		t.Errorf("trends %v, first %q at %d along p at n = %g; want %v, comm at 32, n = 40000", got, m.FirstToStop, m.FirstToStopAt, m.TrendAtN, want)
	}
}

// TestStrongScalingLimit: a region whose time halves up to 64 and is flat from there stops
// at 64 or 128 (the fitted model rounds the kink: T(2p)/T(p) > 0.9 from there); one that
// keeps halving still scales at twice the largest measured p (0).
func TestStrongScalingLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("PARAMETER p\nPOINTS 1 2 4 8 16 32 64 128 256\nMETRIC time\nREGION flat_after_64\n")
	for _, p := range []float64{1, 2, 4, 8, 16, 32, 64, 128, 256} {
		t := 6400 / p
		if p > 64 {
			t = 100
		}
		fmt.Fprintf(&b, "DATA %g %g\n", t, t*1.01)
	}
	b.WriteString("REGION halving\n")
	for _, p := range []float64{1, 2, 4, 8, 16, 32, 64, 128, 256} {
		fmt.Fprintf(&b, "DATA %g %g\n", 1000/p, 1000/p*1.01)
	}
	e, err := ReadText("limit.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Model(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, rm := range m.Models {
		got[rm.Region] = rm.StopsScalingAt
	}
	if l := got["flat_after_64"]; (l != 64 && l != 128) || got["halving"] != 0 || m.FirstToStop != "flat_after_64" {
		t.Errorf("limits %v, first %q: want flat_after_64 at 64, halving 0", got, m.FirstToStop)
	}
}

// TestSkipNotes: a series that cannot be modelled is skipped with a note in plain words
// (which region and metric, from which line, why) — not an error's "invalid input:" text.
func TestSkipNotes(t *testing.T) {
	e := read(t, "relearn_data.txt")
	m, err := Model(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `region "Update #synaptic elements + del synapses", metric "time" (series from line 195) skipped: a value of 0 at p = 32, n = 5000 (line 4); only positive values can be modelled`
	if len(m.Notes) != 1 || m.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", m.Notes, want)
	}
	for _, n := range m.Notes {
		if strings.Contains(n, "invalid input") {
			t.Errorf("note leaks an error class: %s", n)
		}
	}
}

// TestHostile: broken versions of each format are refused with fault.ErrInput (or
// ErrTooLarge) naming file:line of the fault.
func TestHostile(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"unknown.txt", "PARAMETER p\nPOINTS 1 2\nFOO bar\n", "unknown.txt:3:"},
		{"nan.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1 NaN\n", "nan.txt:4:"},
		{"toomany.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2\nDATA 3\n", "toomany.txt:6:"},
		{"arity.txt", "PARAMETER p n\nPOINTS ( 1 2 ) ( 3 )\n", "arity.txt:2:"},
		{"noparen.txt", "PARAMETER p n\nPOINTS 1 2\n", "noparen.txt:2:"},
		{"five.txt", "PARAMETER a b c d e\n", "five.txt:1:"},
		{"datafirst.txt", "DATA 1\n", "datafirst.txt:1:"},
		{"empty.txt", "# nothing\n", "empty.txt:1:"},
		{"twice.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2\nREGION s\nDATA 1\nDATA 2\nREGION r\nDATA 3\n", "twice.txt:10:"},
		{"subnormal.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1e-320\nDATA 2\n", "subnormal.txt:4:"},
		{"subpoint.txt", "PARAMETER p\nPOINTS 1 5e-324\n", "subpoint.txt:2:"},
		{"short.txt", "PARAMETER p\nPOINTS 1 2 4\nREGION r\nDATA 1\nDATA 2\nREGION s\nDATA 1\nDATA 2\nDATA 3\n", "short.txt:4:"},
		{"shortend.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\n", "shortend.txt:4:"},
		// hostile7 P2-2: one_parameter_1.txt with its second POINTS line changed to the
		// first's value was read, the x = 30 DATA taken as replicates at x = 20, exit 0
		{"duppoint.txt", "PARAMETER x\n\nPOINTS ( 20 )\nPOINTS ( 20 )\nPOINTS ( 40 )\nREGION r\nDATA 1\nDATA 2\nDATA 3\n", "duppoint.txt:4: point (20) given twice (first at line 3)"},
		{"duppoint2.txt", "PARAMETER p n\nPOINTS ( 32 5000 ) ( 32 6000 )\nPOINTS ( 64 5000 ) ( 32 6000 )\n", "duppoint2.txt:3: point (32 6000) given twice (first at line 2)"},
		{"duppoint1.txt", "PARAMETER p\nPOINTS 1 2 4 2\n", "duppoint1.txt:2: point (2) given twice"},
		{"dup.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n{\"params\":{\"p\":1,\"p\":2},\"value\":1}\n", "dup.jsonl:2:"},
		{"dupvalue.jsonl", "{\"params\":{\"p\":1},\"value\":1,\"value\":2}\n", "dupvalue.jsonl:1:"},
		{"subnormal.jsonl", "{\"params\":{\"p\":1},\"value\":1e-320}\n", "subnormal.jsonl:1:"},
		{"dup.json", "{\n\"parameters\": [\"p\"],\n\"measurements\": {\"r\": {\"time\": [{\"point\": [1], \"values\": [1]}]},\n\"r\": {\"time\": [{\"point\": [2], \"values\": [2]}]}}\n}\n", "dup.json:4:"},
		{"dupnested.json", "{\n\"parameters\": [\"p\"],\n\"measurements\": {\"r\": {\"time\": [{\"point\": [1], \"values\": [1], \"values\": [2]}]}}\n}\n", "dupnested.json:3:"},
		{"bad.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n{\"params\":{\"p\":2},\"value\":\"x\"}\n", "bad.jsonl:2:"},
		{"unknown.jsonl", "{\"params\":{\"p\":1},\"value\":1,\"extra\":2}\n", "unknown.jsonl:1:"},
		{"mixed.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n\n{\"params\":{\"q\":2},\"value\":1}\n", "mixed.jsonl:3:"},
		{"two.jsonl", "{\"params\":{\"p\":1},\"value\":1} {}\n", "two.jsonl:1:"},
		{"broken.json", "{\n\"parameters\": [\"p\"],\n\"measurements\": {\"r\": {\"time\": [{\"point\": [1], \"values\": [1,]}]}}\n}\n", "broken.json:3:"},
		{"arity.json", "{\n\"parameters\": [\"p\"],\n\"measurements\": {\n\"r\": {\"time\": [{\"point\": [1, 2], \"values\": [1]}]}}\n}\n", "arity.json:4:"},
		{"unknown.json", "{\n\"parameters\": [\"p\"],\n\"extra\": 1\n}\n", "unknown.json:3:"},
	} {
		_, err := ReadFile(c.name, []byte(c.text))
		if err == nil || !(errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrTooLarge)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a refusal naming %s", c.name, err, c.want)
		}
	}
}

// TestLimits: past MaxValues the text reader refuses with ErrTooLarge at the line that
// crossed it, before storing it.
func TestLimits(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("PARAMETER p\nPOINTS 1 2\n")
	line := strings.Repeat("1 ", 1000)
	for r := 0; r <= MaxValues/2000; r++ {
		fmt.Fprintf(&b, "REGION r%d\nDATA %s\nDATA %s\n", r, line, line)
	}
	_, err := ReadText("big.txt", &b)
	if !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("%v, want ErrTooLarge", err)
	}
}

func FuzzReadText(f *testing.F) {
	for _, n := range []string{"one_parameter_1.txt", "experiment2.txt", "relearn_data.txt"} {
		b, _ := os.ReadFile(filepath.Join("testdata", n))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFuzz(t, "f.txt", b)
	})
}

func FuzzReadJSONLines(f *testing.F) {
	for _, n := range []string{"json_test_input.jsonl", "input_1.jsonl"} {
		b, _ := os.ReadFile(filepath.Join("testdata", n))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFuzz(t, "f.jsonl", b)
	})
}

func FuzzReadJSON(f *testing.F) {
	for _, n := range []string{"input1.json", "input2.json", "legacy/input_1.JSON", "legacy/input_11.JSON"} {
		b, _ := os.ReadFile(filepath.Join("testdata", n))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFuzz(t, "f.json", b)
	})
}

// checkFuzz: any input is read or refused with a typed error naming the file; what is read
// has consistent shapes (Model is tested on the examples: a fit per input would hold the
// fuzzer to a few executions a second).
func checkFuzz(t *testing.T, name string, b []byte) {
	e, err := ReadFile(name, b)
	if err != nil {
		if !(errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrTooLarge)) || !strings.Contains(err.Error(), name) {
			t.Fatalf("untyped or unnamed error: %v", err)
		}
		return
	}
	for _, pt := range e.Points {
		if len(pt) != len(e.Parameters) {
			t.Fatalf("point %v for %d parameters", pt, len(e.Parameters))
		}
	}
	for _, s := range e.Series {
		if len(s.Values) != len(e.Points) {
			t.Fatalf("series %q: %d value rows for %d points", s.Region, len(s.Values), len(e.Points))
		}
	}
}

// BenchmarkReadTextLimit: the text reader at its value limit (MaxValues = 10⁶ values: 500
// regions × 2 points × 1000 repetitions, about 2 MB).
func BenchmarkReadTextLimit(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("PARAMETER p\nPOINTS 1 2\n")
	line := strings.Repeat("1.5 ", 1000)
	for r := 0; r < MaxValues/2000; r++ {
		fmt.Fprintf(&buf, "REGION r%d\nDATA %s\nDATA %s\n", r, line, line)
	}
	data := buf.Bytes()
	for b.Loop() {
		if _, err := ReadText("big.txt", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadJSONLinesLimit: JSON-lines at 10⁵ lines of 10 repetitions (10⁶ values).
func BenchmarkReadJSONLinesLimit(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < MaxValues/10; i++ {
		fmt.Fprintf(&buf, "{\"params\":{\"p\":%d},\"callpath\":\"r%d\",\"metric\":\"time\",\"value\":[1,2,3,4,5,6,7,8,9,10]}\n", 1<<(i%8), i%100)
	}
	data := buf.Bytes()
	for b.Loop() {
		if _, err := ReadJSONLines("big.jsonl", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelExample: one model per region of one_parameter_2.txt.
func BenchmarkModelExample(b *testing.B) {
	e := read(b, "one_parameter_2.txt")
	for b.Loop() {
		if _, err := Model(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
}

// TestModelRefusals: experiments that read but cannot be modelled are refused with
// fault.ErrInput naming file:line — no modelable series (exit 0 with "models": null before),
// a process count of 0 at the POINTS line that gave it, three parameters.
func TestModelRefusals(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"nomodel.txt", "PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 0\nDATA 0\n", "nomodel.txt:4: no region and metric could be modelled"},
		{"p0.txt", "PARAMETER p\nPOINTS 1 2\nPOINTS 0\nREGION r\nDATA 1\nDATA 2\nDATA 3\n", "p0.txt:3: p = 0"},
		{"p0.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n{\"params\":{\"p\":0},\"value\":1}\n", "p0.jsonl:2: p = 0"},
		{"three.txt", "PARAMETER p n m\nPOINTS ( 1 1 1 ) ( 2 2 2 )\nREGION r\nDATA 1\nDATA 2\n", "three.txt:1:"},
		// hostile7 P2-6: a bad value of the second parameter was reported at the first DATA
		// line, once per region (3 KB); now once, at the POINTS line that gave it
		{"n-5.txt", "PARAMETER p\nPARAMETER n\nPOINTS ( 32 5000 )\nPOINTS ( 32 -5 )\nPOINTS ( 64 5000 )\nREGION r\nDATA 1\nDATA 2\nDATA 3\nREGION s\nDATA 1\nDATA 2\nDATA 3\n", "n-5.txt:4: n = -5: the problem size must be positive"},
		{"n0.jsonl", "{\"params\":{\"p\":1,\"n\":1},\"value\":1}\n{\"params\":{\"p\":2,\"n\":0},\"value\":1}\n", "n0.jsonl:2: n = 0"},
	} {
		e, err := ReadFile(c.name, []byte(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := Model(context.Background(), e)
		if m != nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want a refusal naming %q", c.name, m, err, c.want)
		}
	}
}
