package fit

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

// TestBaselinesRecover: Amdahl and USL are recovered exactly from data they generated.
func TestBaselinesRecover(t *testing.T) {
	d := &Data{Target: "speedup"}
	for p := 1; p <= 64; p *= 2 {
		pf := float64(p)
		d.Obs = append(d.Obs, Observation{P: p, D: 1, Value: pf / (1 + 0.03*(pf-1) + 2e-4*pf*(pf-1))})
	}
	bs, err := Baselines(d)
	if err != nil {
		t.Fatal(err)
	}
	usl := bs[1]
	if math.Abs(usl.Parameters[0].Value-0.03) > 1e-6 || math.Abs(usl.Parameters[1].Value-2e-4) > 1e-8 {
		t.Errorf("USL σ, κ = %v, %v", usl.Parameters[0].Value, usl.Parameters[1].Value)
	}
	d2 := &Data{Target: "time"}
	for p := 1; p <= 64; p *= 2 {
		d2.Obs = append(d2.Obs, Observation{P: p, D: 1, Value: 100 * (0.1 + 0.9/float64(p))})
	}
	bs, err = Baselines(d2)
	if err != nil {
		t.Fatal(err)
	}
	if am := bs[0]; math.Abs(am.Parameters[0].Value-100) > 1e-6 || math.Abs(am.Parameters[1].Value-0.1) > 1e-8 {
		t.Errorf("Amdahl T1, f = %v, %v", am.Parameters[0].Value, am.Parameters[1].Value)
	}
}

// TestBootstrapAndLOO: bootstrap intervals contain the estimate; leave-one-out error is
// near the noise level on data the model generated.
func TestBootstrapAndLOO(t *testing.T) {
	sp := ioSpec(1, 40)
	truth := map[string]float64{"s_par": 0.8, "sr_com": 0.1, "sr_io": 0.2}
	data := surface(t, sp, spmd.BusAIO, truth, []int{1, 2, 4, 8, 16, 32}, []int{1, 2, 4}, 0.02, 5)
	r := fitSPMD(t, sp, spmd.BusAIO, data)
	for _, pe := range r.Parameters {
		if pe.Fixed {
			continue
		}
		if pe.BootLow == nil || !(*pe.BootLow <= pe.Value*1.05 && pe.Value*0.95 <= *pe.BootHi) {
			t.Errorf("%s = %g, bootstrap interval %v–%v", pe.Name, pe.Value, pe.BootLow, pe.BootHi)
		}
	}
	loo, err := LeaveOneOut(r, data)
	if err != nil || loo > 0.05 {
		t.Errorf("LOO rms relative error %v (%v), noise 2 %%", loo, err)
	}
}

func TestReadDataErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"p,time\n0,1\n", "d.csv:2: p = \"0\""},
		{"p,d,time\n1,0,1\n", "d = \"0\""},
		{"q,time\n1,1\n", "needs a column p"},
		{"p,time,speedup\n1,1,1\n", "not both"},
		{"p,time\n", "no data rows"},
	} {
		if _, err := ReadData("d.csv", strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadData(f *testing.F) {
	f.Add([]byte("p,d,speedup\n1,1,1\n2,1,1.8\n"))
	f.Add([]byte("p,run,time\n1,a,10\n1,a,11\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ReadData("f.csv", bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, o := range d.Obs {
			if !(o.Value > 0) || o.P < 1 || o.D < 1 || math.IsInf(o.Value, 0) {
				t.Fatalf("accepted %+v", o)
			}
		}
	})
}

func FuzzParseSpec(f *testing.F) {
	f.Add([]byte("architecture: bus-aio\nparameters:\n  s_par: {start: 0.5, min: 0, max: 2}\n  w: 0.3\n"))
	f.Add([]byte("architecture: auto\nno_comm_at_p1: true\nparameters: {sr_com: {start: 1}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sp, err := ParseSpec("f.yaml", b)
		if err != nil {
			return
		}
		for _, p := range sp.Params {
			if p.Free && !(p.Min <= p.Value && p.Value <= p.Max) {
				t.Fatalf("start outside bounds accepted: %+v", p)
			}
		}
	})
}
