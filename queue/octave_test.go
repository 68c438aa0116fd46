package queue

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// octaveQueueCase is one case of ../testdata/octave/queue.json, written by
// ../testdata/octave/queue.m with GNU Octave 7.3 and queueing 1.2.7.
type octaveQueueCase struct {
	Name, Func      string
	Lambda          float64
	Mu              json.RawMessage // a number, or a vector for qsammm
	M, K            int
	X2nd            float64
	U, Rt, Q, X, P0 float64
	Pm, PK, B, C    *float64
}

func loadQueueCases(t *testing.T) []octaveQueueCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/octave/queue.json")
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json matches keys case-insensitively: keep Octave's R apart from nothing
	// else, but name it Rt for readability, as the qn tests do.
	b = []byte(strings.ReplaceAll(string(b), `"R":`, `"Rt":`))
	var cs []octaveQueueCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// relClose reports whether got and want agree to tol relative (absolute below 1e-12).
func relClose(got, want, tol float64) bool {
	if math.Abs(want) < 1e-12 {
		return math.Abs(got-want) < 1e-12
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// TestOctaveQueue checks every single-queue formula and both Erlang functions against
// Octave's qsmm1, qsmmm, qsmminf, qsmm1k, qsmmmk, qsmg1, qsammm, erlangb and erlangc to 1e-9.
func TestOctaveQueue(t *testing.T) {
	const tol = 1e-9
	seen := map[string]int{}
	for _, c := range loadQueueCases(t) {
		seen[c.Func]++
		var mu float64
		var mus []float64
		if c.Func == "qsammm" {
			if err := json.Unmarshal(c.Mu, &mus); err != nil {
				t.Fatal(err)
			}
		} else if err := json.Unmarshal(c.Mu, &mu); err != nil {
			t.Fatal(err)
		}
		check := func(what string, got, want float64) {
			t.Helper()
			if !relClose(got, want, tol) {
				t.Errorf("%s: %s = %.17g, Octave %.17g (rel %.2g)", c.Name, what, got, want, math.Abs(got-want)/math.Abs(want))
			}
		}
		var r *Result
		var err error
		switch c.Func {
		case "erlangb":
			b, err := ErlangB(c.Lambda, c.M)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			check("B", b, *c.B)
			continue
		case "erlangc":
			v, err := ErlangC(c.Lambda, c.M)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			check("C", v, *c.C)
			continue
		case "qsmm1":
			r, err = MM1(c.Lambda, mu)
		case "qsmmm":
			r, err = MMm(c.Lambda, mu, c.M)
		case "qsmminf":
			r, err = MMInf(c.Lambda, mu)
		case "qsmm1k":
			r, err = MM1K(c.Lambda, mu, c.K)
		case "qsmmmk":
			r, err = MMmK(c.Lambda, mu, c.M, c.K)
		case "qsmg1":
			s := 1 / mu
			r, err = MG1(c.Lambda, mu, c.X2nd/(s*s)-1)
		case "qsammm":
			r, err = MMmHetero(c.Lambda, mus)
		default:
			t.Fatalf("%s: unknown function %s", c.Name, c.Func)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		u := r.Utilization
		if c.Func == "qsmminf" {
			u = r.BusyServers // Octave's U is the traffic intensity λ/μ
		}
		check("U", u, c.U)
		check("R", r.ResponseTime, c.Rt)
		check("Q", r.Jobs, c.Q)
		check("X", r.Throughput, c.X)
		if c.Func == "qsmg1" {
			// Octave 1.2.7's qsmg1 returns p0 = exp(−ρ); the M/G/1 empty probability is 1 − ρ.
			check("p0 (Octave's exp(−ρ))", math.Exp(-r.Utilization), c.P0)
			check("p0", r.PEmpty, 1-c.U)
		} else {
			check("p0", r.PEmpty, c.P0)
		}
		if c.Pm != nil {
			check("pm", *r.PWait, *c.Pm)
		}
		if c.PK != nil {
			check("pK", *r.PBlock, *c.PK)
		}
	}
	for _, f := range []string{"qsmm1", "qsmmm", "qsmminf", "qsmm1k", "qsmmmk", "qsmg1", "qsammm", "erlangb", "erlangc"} {
		if seen[f] == 0 {
			t.Errorf("queue.json has no %s case", f)
		}
	}
}
