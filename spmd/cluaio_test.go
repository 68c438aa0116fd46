package spmd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// cluNet is the CLU-AIO network as a qn model (as Evaluator builds it for qn.MVAMulti).
func cluNet(d, n int, E, x, z float64) *qn.Model {
	qm := &qn.Model{}
	for k := 0; k < d; k++ {
		qm.Classes = append(qm.Classes, qn.Class{Name: fmt.Sprint("c", k), Population: n})
		qm.Stations = append(qm.Stations, qn.Station{Name: fmt.Sprint("disk", k), Kind: qn.Queue})
	}
	qm.Stations = append(qm.Stations, qn.Station{Name: "net", Kind: qn.Queue}, qn.Station{Name: "z", Kind: qn.Delay})
	for k := 0; k < d; k++ {
		row := make([]float64, d+2)
		row[k], row[d], row[d+1] = E, x, z
		qm.Demand = append(qm.Demand, row)
	}
	return qm
}

// TestCLUAIOSymmetricExact: the convolution solver agrees with exact multi-class MVA
// (qn.MVAMulti, itself checked against Octave's qncmmva) to 1e-10 on random symmetric
// networks, zero think time and zero disk demand included.
func TestCLUAIOSymmetricExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 40; i++ {
		d, n := 1+rng.IntN(4), 1+rng.IntN(6)
		E, x, z := rng.Float64(), rng.Float64()*0.5, rng.Float64()*2
		switch i % 5 {
		case 1:
			z = 0
		case 2:
			E = 0
		}
		r, err := qn.MVAMulti(cluNet(d, n, E, x, z))
		if err != nil {
			t.Fatal(err)
		}
		rd, rn, X := cluAIOSymmetric(d, n, E, x, z)
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"X", X, r.Throughput[0]}, {"R disk", rd, r.Residence[0][0]}, {"R net", rn, r.Residence[d][0]}} {
			if math.Abs(c.got-c.want) > 1e-10*math.Max(1, math.Abs(c.want)) {
				t.Errorf("d=%d n=%d E=%.3g x=%.3g z=%.3g %s: %.15g, MVA %.15g", d, n, E, x, z, c.what, c.got, c.want)
			}
		}
	}
}

// TestCLUAIOSymmetricFinite: every output is finite and positive when any one of the three
// demands is positive (the caller rejects the all-zero cycle).
func TestCLUAIOSymmetricFinite(t *testing.T) {
	for _, v := range [][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1e-9, 1e9, 0}, {1e6, 1e-6, 1e3}} {
		for _, dn := range [][2]int{{1, 1}, {4, 32}, {32, 4}} {
			rd, rn, X := cluAIOSymmetric(dn[0], dn[1], v[0], v[1], v[2])
			for _, o := range []float64{rd, rn, X} {
				if math.IsNaN(o) || math.IsInf(o, 0) || o < 0 {
					t.Errorf("d=%d n=%d E,x,z=%v: R_disk %v R_net %v X %v", dn[0], dn[1], v, rd, rn, X)
				}
			}
		}
	}
}

func BenchmarkCLUAIOSymmetric(b *testing.B) {
	for _, dn := range [][2]int{{8, 8}, {64, 16}} {
		b.Run(fmt.Sprintf("d=%d,n=%d", dn[0], dn[1]), func(b *testing.B) {
			for b.Loop() {
				cluAIOSymmetric(dn[0], dn[1], 0.3, 0.02, 1)
			}
		})
	}
}

// TestCLUAIOZeroCycle: a model with no computation, communication or I/O is an error (the
// evaluator rejects it; Evaluate's own guard backs that up), never a NaN.
func TestCLUAIOZeroCycle(t *testing.T) {
	e, err := NewEvaluator(sigmaModel(CluAIO, 0, 0, 0, 0, 0, 1, 0))
	if err == nil {
		_, err = e.Evaluate(8, 2)
	}
	if err == nil {
		t.Error("a zero cycle was accepted")
	}
}

// The inline fork/join MVA (Evaluator.sio) against qn's exact single-class MVA: the cycle
// T_comp = Σ_{k=1}^{p/c} R(k)/k (000 eq. 16) from qn.MVASingleTrajectory's R(k).
func TestSIOAgainstQN(t *testing.T) {
	for _, tc := range []struct {
		p    int
		z, x float64
	}{{1, 1, 0.5}, {7, 0.3, 0.05}, {64, 2, 0.1}, {200, 1e-3, 1}} {
		m := &Model{Arch: BusSIO, Phases: []Phase{{NIO: 1, SPar: tc.z, SRCom: tc.x, W: 1, C: 1, SRIO: 1}}}
		e, err := NewEvaluator(m)
		if err != nil {
			t.Fatal(err)
		}
		// z = n(h·cpu + start + (1−w)·transfer) = S_par/p; x = n·w·g(p)·SR_COM = x (g = p^0 = 1)
		z := tc.z / float64(tc.p)
		c, err := e.sio(t.Context(), 0, tc.p, z, tc.x)
		if err != nil {
			t.Fatal(err)
		}
		qm := &qn.Model{
			Classes:  []qn.Class{{Name: "g", Population: tc.p}},
			Stations: []qn.Station{{Name: "z", Kind: qn.Delay}, {Name: "x", Kind: qn.Queue}},
			Demand:   [][]float64{{z, tc.x}},
		}
		_, rs, err := qn.MVASingleTrajectory(qm)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for k := 1; k <= tc.p; k++ {
			want += rs[k] / float64(k)
		}
		got := c.CPU + c.Sync + c.CommStartup + c.CommTransfer + c.Contention
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("p = %d: %v, want %v", tc.p, got, want)
		}
	}
}
