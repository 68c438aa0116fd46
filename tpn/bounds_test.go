package tpn

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/clusterperf/clusterperf/fault"
)

// loopNet is one place marked 1 and one single-server transition of delay d with arcs p→t,
// t→p, and a final place nothing fills: it fires every d forever (the review's loop1.pnml).
func loopNet(d int64) *Net {
	n := &Net{FinalSet: true}
	p := n.AddPlace(Place{Name: "p", Initial: 1})
	n.AddPlace(Place{Name: "never", Final: 1})
	n.AddTransition(Transition{Name: "t", Delay: d, In: []Arc{{p, 1}}, Out: []Arc{{p, 1}}})
	return n
}

// TestSourceInfiniteServer: a transition with no input place and infinite servers is
// enabled infinitely often at every instant (petri-notes §3.3: every enabling runs in
// parallel), so the net has no finite behaviour: Validate refuses it, naming the transition.
// Before, Run started firings at t = 0 until the firing budget (10^7 in the event queue,
// gigabytes) and the review's run died of "out of memory". A finite-server source
// transition is well defined (it fires every delay) and still runs, to the budget.
func TestSourceInfiniteServer(t *testing.T) {
	const gen0 = `<?xml version="1.0" encoding="UTF-8"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="pg">
<place id="p"><initialMarking><text>0</text></initialMarking></place><place id="q"></place>
<transition id="t"><toolspecific tool="clusterperf" version="1"><delay>0</delay><server>inf</server></toolspecific></transition>
<arc id="b" source="t" target="q"></arc></page></net></pnml>`
	n, err := ReadPNML(strings.NewReader(gen0))
	if err == nil {
		_, err = n.Run(Options{Record: true, MaxFirings: 1000}) // before: cut off, no error
	}
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `transition "t": infinite servers and no input place`) {
		t.Fatalf("got %v; want an input error naming transition t", err)
	}
	for _, servers := range []int{1, 3} {
		n := &Net{FinalSet: true}
		q := n.AddPlace(Place{Name: "q", Final: 1 << 40})
		n.AddTransition(Transition{Name: "src", Delay: sec(1), Servers: servers, Out: []Arc{{q, 1}}})
		r, err := n.Run(Options{MaxFirings: 30})
		// servers firings start at t = 0, 1, 2, …: the 30th starts at 30/servers − 1 s,
		// and the ones in progress then have not ended (the budget counts starts)
		if err != nil || r.Outcome != CutOff || r.Time != sec(float64(30/servers-1)) {
			t.Errorf("%d servers: %v %v at %g s", servers, err, r.Outcome, Seconds(r.Time))
		}
	}
}

// TestInFlightBound: firings in progress at once are bounded by Options.MaxInFlight (32
// bytes of event queue each); beyond it Run refuses with fault.ErrTooLarge naming the
// estimate and the limit, however large the firing budget. A program net's transitions
// may all be in progress at once, so the bound never falls below them.
func TestInFlightBound(t *testing.T) {
	n := &Net{FinalSet: true}
	q := n.AddPlace(Place{Name: "q", Final: 1 << 40})
	n.AddTransition(Transition{Name: "src", Delay: sec(1), Servers: 1 << 30, Out: []Arc{{q, 1}}})
	_, err := n.Run(Options{MaxFirings: -1, MaxInFlight: 1000})
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), `transition "src": more than 1000 firings in progress at once at t = 0 s`) || !strings.Contains(err.Error(), "limit is 1000") {
		t.Errorf("got %v", err)
	}
	// 5000 firings of a 5000-token infinite server, all in progress at once, within the
	// bound: max(MaxInFlight, transitions) = 5000, each ends at 1 s
	m := &Net{FinalSet: true}
	a := m.AddPlace(Place{Name: "a", Initial: 5000})
	b := m.AddPlace(Place{Name: "b", Final: 5000})
	m.AddTransition(Transition{Name: "x", Servers: InfiniteServers, Delay: sec(1), In: []Arc{{a, 1}}, Out: []Arc{{b, 1}}})
	for i := 0; i < 4999; i++ {
		m.AddTransition(Transition{Name: "idle", In: []Arc{{a, 1 << 40}}})
	}
	r, err := m.Run(Options{MaxInFlight: 10})
	if err != nil || r.Outcome != Completed || r.Time != sec(1) || r.Firings != 5000 {
		t.Errorf("5000 at once with 5000 transitions: %v %v at %g s after %d", err, r.Outcome, Seconds(r.Time), r.Firings)
	}
}

// TestLogBound: a Record run keeps at most max(MaxLog, transitions) firings; a loop cut off
// by its firing budget then drops its log (LogDropped) instead of holding 32 bytes per firing
// (the review measured 1.4 GB resident for the default 10^7). The answer is unchanged: the
// same cut-off after the same firings at the same time (closed form: the k-th firing of a
// delay-d loop ends at k·d).
func TestLogBound(t *testing.T) {
	type logCase struct {
		name            string
		maxLog, firings int64
		dropped         bool
	}
	cases := []logCase{{"default", 0, DefaultMaxLog + 10, true}, {"within", 100, 100, false}, {"beyond", 100, 1000, true}, {"unbounded", -1, 1000, false}}
	for _, tc := range cases {
		r, err := loopNet(sec(1)).Run(Options{Record: true, MaxLog: tc.maxLog, MaxFirings: tc.firings})
		if err != nil || r.Outcome != CutOff || r.Firings != tc.firings-1 || r.Time != sec(float64(tc.firings-1)) {
			t.Fatalf("%s: %v %v after %d at %g s", tc.name, err, r.Outcome, r.Firings, Seconds(r.Time))
		}
		if r.LogDropped != tc.dropped || (tc.dropped && r.Log != nil) || (!tc.dropped && int64(len(r.Log)) != tc.firings) {
			t.Errorf("%s: dropped %v with %d entries; want dropped %v", tc.name, r.LogDropped, len(r.Log), tc.dropped)
		}
		if len(r.Last) != 10 || r.Last[9].End != r.Time {
			t.Errorf("%s: the last firings %v lost", tc.name, r.Last)
		}
	}
	// a completed run whose log was dropped has no critical path to report (rather than an
	// empty one): 50 firings of a process's step, log bound 10
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: 50, Process: "P"})
	b := n.AddPlace(Place{Name: "b", Final: 50, Process: "P"})
	n.AddTransition(Transition{Name: "step", Delay: sec(1), In: []Arc{{a, 1}}, Out: []Arc{{b, 1}}, Process: "P", Kind: "compute"})
	r, err := n.Run(Options{Record: true, MaxLog: 10})
	if err != nil || r.Outcome != Completed || r.Time != sec(50) || !r.LogDropped {
		t.Fatalf("%v %v at %g s, dropped %v", err, r.Outcome, Seconds(r.Time), r.LogDropped)
	}
	// the per-process times come from the run's constant-memory statistics (50 firings of
	// 1 s: 50 s computing, finishing at 50 s; one grouped Gantt span); the critical path
	// needs the log
	p, s := Times(n, r)
	if len(p) != 1 || p[0].Computing != 50 || p[0].Finish != 50 || len(s) != 1 || s[0].Kind != "loop" || CriticalPath(n, r) != nil {
		t.Errorf("times %v spans %v critical path %v from a dropped log", p, s, CriticalPath(n, r))
	}
}

// TestSlotSize: the memory bounds count bytesPerSlot bytes per log entry and queue slot.
func TestSlotSize(t *testing.T) {
	if f, c := unsafe.Sizeof(Firing{}), unsafe.Sizeof(completion{}); f != bytesPerSlot || c != bytesPerSlot {
		t.Errorf("Firing %d bytes, completion %d; bytesPerSlot %d", f, c, bytesPerSlot)
	}
}

// TestTimeFormat: times in findings are printed with 6 significant digits: the 999th
// firing of a 1 s loop ends at 999 s, which float64 ticks·1e-9 makes 999.0000000000001.
func TestTimeFormat(t *testing.T) {
	r := &Result{Outcome: CutOff, Time: 999_000_000_000, Firings: 999}
	if got := r.Err().Error(); !strings.Contains(got, "at t = 999 s after 999 firings") {
		t.Errorf("cut-off: %s", got)
	}
	d := &DeadlockReport{Time: 999_000_000_000, Last: []string{}}
	if got := d.Error(); !strings.HasPrefix(got, "DEADLOCK at t=999 s") {
		t.Errorf("deadlock: %s", got)
	}
	r = &Result{Outcome: Deadlock, Time: 999_000_000_000}
	if got := r.Err().Error(); !strings.Contains(got, "at t = 999 s") {
		t.Errorf("deadlock without report: %s", got)
	}
}
