package jmva

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/qn"
)

// octaveRef is one case of ../testdata/octave/jmva.json (written by
// ../testdata/octave/jmva.m with GNU Octave 7.3 and queueing 1.2.7): per-class, per-station
// station throughput X, per-visit response time R (JSON key "R", read as Rt), queue Q.
type octaveRef struct {
	Name     string
	N        json.RawMessage
	X, Q, Rt json.RawMessage
}

// rows decodes Octave's vector (one class) or matrix.
func rows(t *testing.T, raw json.RawMessage) [][]float64 {
	t.Helper()
	var m [][]float64
	if json.Unmarshal(raw, &m) == nil {
		return m
	}
	var v []float64
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return [][]float64{v}
}

func loadRefs(t *testing.T) map[string]octaveRef {
	b, err := os.ReadFile("../testdata/octave/jmva.json")
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), `"R":`, `"Rt":`))
	var cs []octaveRef
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	out := map[string]octaveRef{}
	for _, c := range cs {
		out[c.Name] = c
	}
	return out
}

func readExample(t *testing.T, name string) *Document {
	t.Helper()
	path := "../examples/jmt/" + name
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Read(path, b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// compare checks every station and class of r against Octave's X (station throughput),
// Q and per-visit R to a relative 1e-9.
func compare(t *testing.T, name string, m *qn.Model, r *qn.Result, ref octaveRef) {
	t.Helper()
	X, Q, R := rows(t, ref.X), rows(t, ref.Q), rows(t, ref.Rt)
	for c := range m.Classes {
		for k, s := range m.Stations {
			v := m.Visits[c][k]
			rPerVisit := 0.0
			if v > 0 {
				rPerVisit = r.Residence[k][c] / v
			}
			for _, p := range []struct {
				what      string
				got, want float64
			}{{"X", r.Throughput[c] * v, X[c][k]}, {"Q", r.QueueLength[k][c], Q[c][k]}, {"R", rPerVisit, R[c][k]}} {
				if v == 0 && p.what == "R" {
					continue // Octave reports S for a class that never visits
				}
				if math.Abs(p.got-p.want) > 1e-9*math.Max(1e-12, math.Abs(p.want)) && math.Abs(p.got-p.want) > 1e-15 {
					t.Errorf("%s: class %s station %s: %s = %.15g, Octave %.15g", name, m.Classes[c].Name, s.Name, p.what, p.got, p.want)
				}
			}
		}
	}
}

// TestExampleCentral: examples/jmt/central.jmva, two classes, solved exactly by clusterperf,
// agrees with Octave's qncmmva on every station to 1e-9.
func TestExampleCentral(t *testing.T) {
	d := readExample(t, "central.jmva")
	m := d.Model
	if len(m.Classes) != 2 || len(m.Stations) != 4 || m.Stations[0].Kind != qn.Delay || d.Reference["batch"] != "cpu" {
		t.Fatalf("central.jmva read as %+v", d)
	}
	r, err := qn.Solve(context.Background(), m, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "central", m, r, loadRefs(t)["central"])
}

// TestExampleLoadDependent: examples/jmt/ld.jmva (an ldstation and a what-if over the
// population) agrees with Octave's qncsmvald at every what-if point to 1e-9.
func TestExampleLoadDependent(t *testing.T) {
	d := readExample(t, "ld.jmva")
	m := d.Model
	if st := m.Stations[2]; st.Kind != qn.LoadDependent || len(st.Rates) != 5 || math.Abs(st.Rates[4]-3) > 1e-15 || st.Rates[1] != 2 {
		t.Fatalf("ld station read as %+v", st)
	}
	p, vals, err := d.WhatIf.Sweep(m)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := qn.Sweep(context.Background(), m, p, vals, "mva", qn.AMVAOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	refs := loadRefs(t)
	if len(pts) != 6 {
		t.Fatalf("%d sweep points", len(pts))
	}
	for _, pt := range pts {
		if pt.Err != nil {
			t.Fatal(pt.Err)
		}
		n := int(pt.Value)
		mm := m.Clone()
		mm.Classes[0].Population = n
		compare(t, "ld", mm, pt.Result, refs["ld-N"+string(rune('0'+n))])
	}
}

// rewrite writes d and reads the file back (the round trip every writer test makes).
func rewrite(t *testing.T, name string, d *Document) *Document {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	back, err := Read(name, buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return back
}

// TestRoundTrip: writing a model and reading it back gives the same model (demands, visits,
// kinds, servers, load-dependent rates, open and closed classes) and the same what-if and
// reference stations; a think time comes back as a delay station with the same solution.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"central.jmva", "ld.jmva", "jmt-loaddep.jmva", "jmt-mixed.jmva", "jmt-whatif.jmva"} {
		d := readExample(t, name)
		back := rewrite(t, name+" (written)", d)
		if !reflect.DeepEqual(back.Model, d.Model) || !reflect.DeepEqual(back.WhatIf, d.WhatIf) || !reflect.DeepEqual(back.Reference, d.Reference) || back.Description != d.Description || !reflect.DeepEqual(back.Solutions, d.Solutions) {
			t.Errorf("%s: round trip changed the document:\n%+v\n%+v", name, d.Model, back.Model)
		}
	}
	open := &qn.Model{
		Classes: []qn.Class{{Name: "web", Open: true, ArrivalRate: 0.7}, {Name: "api", Open: true, ArrivalRate: 1.3}},
		// PS: a JMVA document's stations are product form (Read says so)
		Stations: []qn.Station{{Name: "lb", Kind: qn.Delay, PS: true}, {Name: "app", Kind: qn.MultiServer, Servers: 4, PS: true}, {Name: "db", PS: true}},
		Demand:   [][]float64{{0.01, 0.8, 0.2}, {0.01, 0.5, 0.1}},
		Visits:   [][]float64{{1, 2, 4}, {1, 1, 2}},
	}
	back := rewrite(t, "open.jmva", &Document{Model: open, Description: "open <test> & \"quotes\" ]]> end"})
	if !reflect.DeepEqual(back.Model, open) || back.Description != "open <test> & \"quotes\" ]]> end" {
		t.Errorf("open model changed:\n%+v\n%+v\n%q", open, back.Model, back.Description)
	}
	// think time → delay station "think": same class throughputs and response times
	thinker := &qn.Model{Classes: []qn.Class{{Name: "u", Population: 5, ThinkTime: 3}},
		Stations: []qn.Station{{Name: "cpu"}, {Name: "disk", Count: 2}}, Demand: [][]float64{{0.2, 0.3}}}
	tb := rewrite(t, "think.jmva", &Document{Model: thinker})
	r1, _ := qn.Solve(context.Background(), thinker, "mva", qn.AMVAOptions{})
	r2, _ := qn.Solve(context.Background(), tb.Model, "mva", qn.AMVAOptions{})
	if len(tb.Model.Stations) != 4 || math.Abs(r1.Throughput[0]-r2.Throughput[0]) > 1e-12*r1.Throughput[0] ||
		math.Abs(r1.ResponseTime[0]+3-r2.ResponseTime[0]) > 1e-12*r2.ResponseTime[0] {
		t.Errorf("think time as delay: X %v vs %v, R+Z %v vs %v (stations %d)", r1.Throughput[0], r2.Throughput[0], r1.ResponseTime[0]+3, r2.ResponseTime[0], len(tb.Model.Stations))
	}
}

// TestSolutions: a solved model written with SolutionOf and read back carries the same
// numbers, in the <algorithm> layout of current JMVA; the older layout (stationresults
// directly in solutions, "Queue length") is read too.
func TestSolutions(t *testing.T) {
	d := readExample(t, "central.jmva")
	r, err := qn.Solve(context.Background(), d.Model, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Solutions = []Solution{SolutionOf(d.Model, r)}
	back := rewrite(t, "solved.jmva", d)
	if !reflect.DeepEqual(back.Solutions, d.Solutions) {
		t.Errorf("solutions changed:\n%+v\n%+v", d.Solutions, back.Solutions)
	}
	// The measure names and layout of JMT's ExactModel (before <algorithm> was added);
	// values from the example in LQNS's jmva_document.cpp comment.
	old := `<model><parameters><classes number="1"><closedclass name="c1" population="1"/></classes>
<stations number="1"><delaystation name="terminals"><servicetimes><servicetime customerclass="c1">1</servicetime></servicetimes>
<visits><visit customerclass="c1">1</visit></visits></delaystation></stations></parameters>
<solutions ok="true" solutionMethod="analytical"><stationresults station="terminals"><classresults customerclass="c1">
<measure measureType="Queue length" meanValue="0.8683417085427135" successful="true"/>
<measure measureType="Throughput" meanValue="0.8683417085427135" successful="true"/>
<measure measureType="Residence time" meanValue="1.0" successful="true"/>
</classresults></stationresults></solutions></model>`
	od, err := Read("old.jmva", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	cr := od.Solutions[0].Results[0].Classes[0]
	if cr.Jobs != 0.8683417085427135 || cr.Residence != 1 || !math.IsNaN(cr.Utilization) {
		t.Errorf("old layout: %+v", cr)
	}
}

// TestReadErrors: every malformed file is refused with its file and line and as input.
func TestReadErrors(t *testing.T) {
	head := `<model><parameters><classes number="1"><closedclass name="c" population="2"/></classes><stations number="1">` + "\n"
	tail := "\n</stations></parameters></model>"
	st := func(body string) string { return head + body + tail }
	li := `<listation name="q" servers="1"><servicetimes><servicetime customerclass="c">%s</servicetime></servicetimes><visits><visit customerclass="c">1</visit></visits></listation>`
	for _, c := range []struct {
		name, file string
		line       int
		want       string
	}{
		{"not xml", "<model", 1, "not a readable"},
		{"unknown element", st(strings.Replace(li, "%s", "1", 1) + "<bogus/>"), 2, "unknown station element <bogus>"},
		{"trailing content", st(strings.Replace(li, "%s", "1", 1)) + "<x/>", 3, "after </model>"},
		{"negative time", st(strings.Replace(li, "%s", "-1", 1)), 2, "must be a finite number ≥ 0"},
		{"NaN time", st(strings.Replace(li, "%s", "NaN", 1)), 2, "finite"},
		{"unknown class", st(strings.Replace(strings.Replace(li, "%s", "1", 1), `visit customerclass="c"`, `visit customerclass="x"`, 1)), 2, "unknown class"},
		{"count mismatch", strings.Replace(st(strings.Replace(li, "%s", "1", 1)), `stations number="1"`, `stations number="2"`, 1), 1, "number=\"2\""},
		{"bad population", strings.Replace(st(strings.Replace(li, "%s", "1", 1)), `population="2"`, `population="2.5"`, 1), 1, "whole number"},
		// XML 1.0 §3.1 "Unique Att Spec": encoding/xml alone kept the last value (6)
		{"duplicate attribute", strings.Replace(st(strings.Replace(li, "%s", "1", 1)), `population="2"`, `population="7" population="6"`, 1), 1, `<closedclass> repeats the attribute population ("7", then "6")`},
		{"duplicate attribute line 2", strings.Replace(st(strings.Replace(li, "%s", "1", 1)), `servers="1"`, `servers="1" servers="2"`, 1), 2, "repeats the attribute servers"},
		{"unknown attribute", strings.Replace(st(strings.Replace(li, "%s", "1", 1)), `servers="1"`, `servers="1" speed="2"`, 1), 2, "unknown attribute"},
		{"ld mixed profiles", `<model><parameters><classes number="2"><closedclass name="a" population="2"/><closedclass name="b" population="1"/></classes><stations number="1">
<ldstation name="d"><servicetimes><servicetimes customerclass="a">1;0.5;0.5</servicetimes>
<servicetimes customerclass="b">1;1;1</servicetimes></servicetimes><visits><visit customerclass="a">1</visit><visit customerclass="b">1</visit></visits></ldstation></stations></parameters></model>`, 3, "slow down differently"},
	} {
		_, err := Read("m.jmva", []byte(c.file))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var se *spec.Error
		if !errors.Is(err, fault.ErrInput) || !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want input error containing %q)", c.name, err, c.want)
			continue
		}
		if c.line > 0 && se.Line != c.line {
			t.Errorf("%s: line %d, want %d (%v)", c.name, se.Line, c.line, err)
		}
	}
}

// TestWhatIfUnsupported: JMVA's all-class scalings are refused, not mistranslated.
func TestWhatIfUnsupported(t *testing.T) {
	d := readExample(t, "central.jmva")
	for _, w := range []WhatIf{{Type: "Customer Numbers", Values: []float64{0.5, 1}}, {Type: "Population Mix", Class: "batch", Values: []float64{0.1}}, {Type: "Service Demands", Class: "batch", Values: []float64{1}}} {
		if _, _, err := w.Sweep(d.Model); !errors.Is(err, qn.ErrUnsupported) {
			t.Errorf("%+v: %v", w, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, name := range []string{"central.jmva", "ld.jmva"} {
		b, err := os.ReadFile("../examples/jmt/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<model><parameters><classes number="1"><openclass name="o" rate="1"/></classes><stations number="1"><listation name="q"><servicetimes><servicetime customerclass="o">0.5</servicetime></servicetimes><visits><visit customerclass="o">1</visit></visits></listation></stations></parameters></model>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Read("fuzz.jmva", data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		// A model read is valid and survives a round trip unchanged.
		if err := d.Model.Validate(); err != nil {
			t.Fatalf("invalid model accepted: %v", err)
		}
		tot := 0
		for _, c := range d.Model.Classes {
			tot += c.Population
		}
		if tot > 1000 {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, d); err != nil {
			return // e.g. open class at a load-dependent station: refused on writing
		}
		back, err := Read("again.jmva", buf.Bytes())
		if err != nil {
			t.Fatalf("written file does not read: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(back.Model, d.Model) {
			t.Fatalf("round trip changed the model:\n%+v\n%+v", d.Model, back.Model)
		}
	})
}

func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile("../examples/jmt/central.jmva")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read("central.jmva", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestThinkNameTaken: a model with a station called "think" and a think time gets a delay
// station with another name, and reads back.
func TestThinkNameTaken(t *testing.T) {
	m := &qn.Model{Classes: []qn.Class{{Name: "u", Population: 2, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "think"}}, Demand: [][]float64{{0.5}}}
	var buf bytes.Buffer
	if err := Write(&buf, &Document{Model: m}); err != nil {
		t.Fatal(err)
	}
	d, err := Read("t.jmva", buf.Bytes())
	if err != nil || d.Model.Stations[0].Name != "think_" {
		t.Fatalf("%v %+v", err, d)
	}
}

// TestSolutionOfGroupsAndThink: a model with a group of 4 disks and a think time, written
// with SolutionOf and read back, has one solution entry per written station under the same
// name (disk#1..4, think), with the values written. The numbers are checked against an
// independent source: the read-back model (groups expanded, think time as a delay station) is
// the same network (BCMP product form depends on demands only), so exact MVA of it must give
// the same per-station jobs, throughput, residence and utilization to 1e-9; the think station
// obeys Little's law (jobs = X·Z).
func TestSolutionOfGroupsAndThink(t *testing.T) {
	m := &qn.Model{
		Classes: []qn.Class{{Name: "batch", Population: 6, ThinkTime: 2}, {Name: "web", Population: 3, ThinkTime: 0.5}},
		Stations: []qn.Station{
			{Name: "cpu", Kind: qn.Queue},
			{Name: "disk", Kind: qn.Queue, Count: 4},
		},
		Demand: [][]float64{{0.3, 0.08}, {0.1, 0.2}},
		Visits: [][]float64{{1, 3}, {1, 2}},
	}
	r, err := qn.Solve(context.Background(), m, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sol := SolutionOf(m, r)
	d := &Document{Model: m, Solutions: []Solution{sol}}
	back := rewrite(t, "solved.jmva", d)
	if len(back.Solutions) != 1 {
		t.Fatalf("%d solutions read back, want 1", len(back.Solutions))
	}
	if !reflect.DeepEqual(back.Solutions[0], sol) {
		t.Errorf("solution changed on round trip:\n%+v\n%+v", sol, back.Solutions[0])
	}
	idx := map[string]int{}
	for k, s := range back.Model.Stations {
		idx[s.Name] = k
	}
	if got, want := len(back.Solutions[0].Results), len(back.Model.Stations); got != want {
		t.Errorf("%d station results for %d written stations", got, want)
	}
	rb, err := qn.Solve(context.Background(), back.Model, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	seen := map[string]bool{}
	for _, sr := range back.Solutions[0].Results {
		k, ok := idx[sr.Station]
		if !ok {
			t.Errorf("solution station %q is not a station of the written model", sr.Station)
			continue
		}
		seen[sr.Station] = true
		for c, cr := range sr.Classes {
			v := back.Model.Visits[c][k]
			want := ClassResult{Class: back.Model.Classes[c].Name, Jobs: rb.QueueLength[k][c], Throughput: rb.Throughput[c] * v,
				Residence: rb.Residence[k][c], Utilization: rb.Utilization[k][c]}
			if cr.Class != want.Class || !near(cr.Jobs, want.Jobs) || !near(cr.Throughput, want.Throughput) ||
				!near(cr.Residence, want.Residence) || !near(cr.Utilization, want.Utilization) {
				t.Errorf("station %s class %s: exported %+v, MVA of the written model %+v", sr.Station, cr.Class, cr, want)
			}
		}
	}
	for _, name := range []string{"think", "cpu", "disk#1", "disk#2", "disk#3", "disk#4"} {
		if !seen[name] {
			t.Errorf("no solution for written station %q", name)
		}
	}
	th := back.Solutions[0].Results[0]
	for c, cr := range th.Classes {
		if z := m.Classes[c].ThinkTime; th.Station != "think" || cr.Residence != z || !near(cr.Jobs, r.Throughput[c]*z) {
			t.Errorf("think station %s class %s: %+v, want residence %v, jobs X·Z = %v", th.Station, cr.Class, cr, z, r.Throughput[c]*z)
		}
	}
}

// TestWhatIfValuesRefusedAtLine (hostile7 P2-9): a negative what-if value and an empty list
// are refused by the reader at the <whatIf> line of the file (line 58 of the shipped
// examples/jmt/jmt-whatif.jmva), not later by the sweep without a place.
func TestWhatIfValuesRefusedAtLine(t *testing.T) {
	data, err := os.ReadFile("../examples/jmt/jmt-whatif.jmva")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`values="4.25;[^"]*"`)
	for _, c := range []struct{ values, want string }{
		{`values="-1;4"`, "w.jmva:58: <whatIf>: value -1 is negative"},
		{`values=""`, "w.jmva:58: <whatIf values="},
	} {
		_, err := Read("w.jmva", re.ReplaceAll(data, []byte(c.values)))
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.values, err, c.want)
		}
	}
}
