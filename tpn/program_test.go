package tpn

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

func load(t testing.TB, prog, cluster string) (*Program, *Cluster) {
	t.Helper()
	pb, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProgram(prog, pb)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := os.ReadFile(cluster)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCluster(cluster, cb)
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// build builds the net of program p on cluster c, failing t on an error.
func build(t testing.TB, p *Program, c *Cluster) *Net {
	t.Helper()
	n, err := Build(p, c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// runCompleted runs n with o, failing t unless it runs to its final marking.
func runCompleted(t testing.TB, n *Net, o Options) *Result {
	t.Helper()
	r, err := n.Run(o)
	if err != nil || r.Outcome != Completed {
		t.Fatal(err, r.Outcome)
	}
	return r
}

// parseProgram parses the program text src (as p.yaml), failing t on an error.
func parseProgram(t testing.TB, src string) *Program {
	t.Helper()
	p, err := ParseProgram("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestComputeDelay: t_d(x) = t_d(ref)·ρ_ref/ρ_x / (1 − U_x) (002): one process computing 2 s
// of reference work on a workstation of power 0.5 with U = 0.2 takes 2/0.5/0.8 = 5 s.
func TestComputeDelay(t *testing.T) {
	p := &Program{Processes: []Process{{Name: "A", Segments: []Segment{{Compute: 2}}}}, Allocation: map[string]string{"A": "slow"}}
	c := &Cluster{Workstations: []Workstation{{Name: "fast", Power: 1}, {Name: "slow", Power: 0.5, Background: []BgClass{{ArrivalRate: 0.4, Demand: 0.5}}}}, Network: Medium{Bandwidth: 1e9}}
	n := build(t, p, c)
	r, _ := n.Run(Options{})
	if r.Outcome != Completed || r.Time != toTicks(5) {
		t.Errorf("%v at %g s, want 5 s", r.Outcome, Seconds(r.Time))
	}
	c.Workstations[1].Background[0].ArrivalRate = 2 // U = 1
	if _, err := Build(p, c); err == nil || !strings.Contains(err.Error(), `workstation "slow": background utilization 1 ≥ 1`) {
		t.Errorf("saturated workstation: %v", err)
	}
}

// TestMatMulLoad: the compute part of P3 scales exactly as 1/(1 − U) of its workstation's
// background utilization, and on dedicated links the predicted time grows with U. (On the
// shared static-at-start Ethernet of cluster.yaml it need not: a slower process changes which
// transfers overlap — 4.52 s at U = 0.4 but 4.47 s at U = 0.6 — a real timing anomaly of the
// shared-medium model.)
func TestMatMulLoad(t *testing.T) {
	p, c := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	c.Network.Shared = false
	prev := 0.0
	for _, U := range []float64{0, 0.2, 0.4, 0.6, 0.8} {
		c.Workstations[3].Background = []BgClass{{ArrivalRate: U, Demand: 1}}
		n := build(t, p, c)
		r, _ := n.Run(Options{Record: true})
		if r.Outcome != Completed {
			t.Fatalf("U=%g: %v", U, r.Outcome)
		}
		times, _ := Times(n, r)
		want := 4 * 0.25 / 1.0 / (1 - U) // P3 on ws4 (power 1): four block products
		if got := times[3].Computing; fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", want) {
			t.Errorf("U=%g: P3 computes %g s, want %g", U, got, want)
		}
		if Seconds(r.Time) < prev {
			t.Errorf("U=%g: time %g fell below %g", U, Seconds(r.Time), prev)
		}
		prev = Seconds(r.Time)
		t.Logf("U = %.1f on ws4: predicted %.4g s", U, Seconds(r.Time))
	}
}

func TestExamplesComplete(t *testing.T) {
	for _, f := range []string{"matmul", "pipeline", "masterworker"} {
		p, c := load(t, "../examples/tpn/"+f+".yaml", "../examples/tpn/cluster.yaml")
		if w := CountMessages(p); len(w) > 0 {
			t.Errorf("%s: %v", f, w)
		}
		n := build(t, p, c)
		r, _ := n.Run(Options{})
		if r.Outcome != Completed {
			t.Errorf("%s: %v", f, r.Outcome)
		}
	}
}

// TestPipelineBottleneck: 10 items through stages of 0.2 s and 0.1 s (on ws2 and ws3, powers
// 0.9 and 0.8): the slowest stage paces the pipeline, so the time is at least 10 × its delay.
func TestPipelineBottleneck(t *testing.T) {
	p, c := load(t, "../examples/tpn/pipeline.yaml", "../examples/tpn/cluster.yaml")
	n, _ := Build(p, c)
	r, _ := n.Run(Options{})
	if Seconds(r.Time) < 10*0.2/0.9 {
		t.Errorf("pipeline %g s, below 10 × the bottleneck stage", Seconds(r.Time))
	}
}

// TestPNMLRoundTrip: export and import keep places, arcs, delays, servers and media; the
// re-imported net runs to the same time.
func TestPNMLRoundTrip(t *testing.T) {
	p, c := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	n, _ := Build(p, c)
	var buf bytes.Buffer
	if err := WritePNML(&buf, n); err != nil {
		t.Fatal(err)
	}
	m, err := ReadPNML(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := n.Run(Options{})
	r2, _ := m.Run(Options{})
	if r1.Time != r2.Time || len(m.Places) != len(n.Places) || len(m.Transitions) != len(n.Transitions) {
		t.Errorf("round trip: %v vs %v ticks, %d/%d places", r1.Time, r2.Time, len(m.Places), len(n.Places))
	}
	// the notes' gather example, written by hand
	g := `<?xml version="1.0"?><pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="pg">
<place id="w1"><initialMarking><text>1</text></initialMarking></place><place id="w2"><initialMarking><text>1</text></initialMarking></place>
<place id="inbox"/><place id="ms"><initialMarking><text>1</text></initialMarking></place><place id="me"/>
<transition id="c1"><toolspecific tool="clusterperf" version="1"><delay>4</delay></toolspecific></transition>
<transition id="c2"><toolspecific tool="clusterperf" version="1"><delay>6</delay></toolspecific></transition>
<transition id="r"><toolspecific tool="other" version="9"><x/></toolspecific><toolspecific tool="clusterperf" version="1"><delay>0.5</delay></toolspecific></transition>
<arc id="a1" source="w1" target="c1"/><arc id="a2" source="c1" target="inbox"/><arc id="a3" source="w2" target="c2"/><arc id="a4" source="c2" target="inbox"/>
<arc id="a5" source="inbox" target="r"><inscription><text>2</text></inscription></arc><arc id="a6" source="ms" target="r"/><arc id="a7" source="r" target="me"/>
</page></net></pnml>`
	gn, err := ReadPNML(strings.NewReader(g))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := gn.Run(Options{})
	if r.Time != toTicks(6.5) {
		t.Errorf("gather: %g s, want 6.5", Seconds(r.Time))
	}
}

func TestPNMLErrors(t *testing.T) {
	head := `<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="t"><page id="pg">`
	for _, tc := range []struct{ body, want string }{
		{`<place id="p"/><place id="p"/>`, `place id "p" used twice`},
		{`<place id="p"/><transition id="t"/><arc id="a" source="p" target="x"/>`, `target "x" is no place or transition`},
		{`<place id="p"/><place id="q"/><arc id="a" source="p" target="q"/>`, "joins two places"},
		{`<place id="p"/><transition id="t"/><arc id="a" source="p" target="t"><inscription><text>0</text></inscription></arc>`, `weight "0" must be a whole number in 1 …`},
		{`<place id="p"><initialMarking><text>-1</text></initialMarking></place>`, "initial marking"},
		{`<place id="p"/><transition id="t"><toolspecific tool="clusterperf" version="1"><delay>x</delay></toolspecific></transition>`, `delay "x"`},
	} {
		_, err := ReadPNML(strings.NewReader(head + tc.body + `</page></net></pnml>`))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.body, err, tc.want)
		}
	}
	if _, err := ReadPNML(strings.NewReader("not xml")); err == nil {
		t.Error("garbage accepted")
	}
}

// BenchmarkFirings: a ring of 1000 processes on 1000 workstations exchanging 10 rounds of
// messages; reports transition firings per second.
func BenchmarkFirings(b *testing.B) {
	p := &Program{}
	const P = 1000
	for i := 0; i < P; i++ {
		body := []Segment{{Recv: &Message{Peer: fmt.Sprint("P", (i+P-1)%P), Count: 1}}, {Send: &Message{Peer: fmt.Sprint("P", (i+1)%P), Bytes: 1000}}, {Compute: 0.01}}
		p.Processes = append(p.Processes, Process{Name: fmt.Sprint("P", i), Segments: []Segment{
			{Compute: 0.01}, {Send: &Message{Peer: fmt.Sprint("P", (i+1)%P), Bytes: 1000}}, {Loop: &Loop{Count: 10, Body: body}}, {Recv: &Message{Peer: fmt.Sprint("P", (i+P-1)%P)}}}})
	}
	c := &Cluster{Network: Medium{Bandwidth: 1e8, Startup: 1e-5}} // one workstation per process
	for i := 0; i < P; i++ {
		c.Workstations = append(c.Workstations, Workstation{Name: fmt.Sprint("w", i), Power: 1})
	}
	n := build(b, p, c)
	var firings int64
	for b.Loop() {
		r := runCompleted(b, n, Options{})
		firings += r.Firings
	}
	b.ReportMetric(float64(firings)/b.Elapsed().Seconds(), "firings/s")
}

// TestComputeOps: 2e9 operations at 4e9 op/s on the reference are 0.5 s there.
func TestComputeOps(t *testing.T) {
	p := parseProgram(t, "processes:\n  - name: A\n    segments: [{compute_ops: 2e9}]\n")
	c, err := ParseCluster("c.yaml", []byte("reference_rate: 4e9\nworkstations: [{name: w, power: 1}]\nnetwork: {bandwidth: 1MB/s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	n := build(t, p, c)
	if r, _ := n.Run(Options{}); r.Time != toTicks(0.5) {
		t.Errorf("%g s", Seconds(r.Time))
	}
	c.ReferenceRate = 0
	if _, err := Build(p, c); err == nil || !strings.Contains(err.Error(), "reference_rate") {
		t.Errorf("missing rate: %v", err)
	}
}
