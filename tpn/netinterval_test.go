package tpn

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNetworkBoundsCoverage: the makespan interval from measured t_s and B covers the
// makespan at the true network parameters in at least ~95 % of repeated measurement
// campaigns. The campaign is simulated: a known network (t_s = 1 ms, B = 1.25 MB/s,
// examples/tpn/cluster.yaml's values) is "benchmarked" n = 8 times per parameter with
// Gaussian noise of 20 % coefficient of variation (002 §3: background traffic makes the
// benchmark times fluctuate); the interval (Bonferroni box of two 97.5 % Student-t
// intervals, corners run) should hold T(true) with probability ≥ 95 %. 300 campaigns: the
// binomial standard error at 95 % is 1.3 %, so the floor 0.92 fails a method whose coverage
// is really below ~0.90 (a single 95 % box without Bonferroni has ≈ 0.90). A mean relative
// width bound keeps the test from passing with intervals that are merely wide.
// Both the shared static Ethernet of the example cluster and dedicated links are checked.
func TestNetworkBoundsCoverage(t *testing.T) {
	const trueTs, trueB, cv, n, campaigns = 0.001, 1.25e6, 0.2, 8, 300
	for _, shared := range []bool{false, true} {
		prog, cl := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
		cl.Network.Shared = shared
		cl.Network.Startup, cl.Network.Bandwidth = trueTs, trueB
		truth, err := makespan(prog, cl, BuildOptions{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(33, 1))
		covered, width := 0, 0.0
		for k := 0; k < campaigns; k++ {
			ts, bw := make([]float64, n), make([]float64, n)
			for i := range ts {
				ts[i] = trueTs * (1 + cv*rng.NormFloat64())
				bw[i] = trueB * (1 + cv*rng.NormFloat64())
			}
			st, b := sampleMean(ts), sampleMean(bw)
			c := *cl
			c.Network.Startup, c.Network.Bandwidth = st.Mean, b.Mean
			c.Network.Uncertainty = &NetUncertainty{Source: "samples", Startup: &st, Bandwidth: &b}
			nb, err := NetworkBounds(context.Background(), prog, &c, BuildOptions{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if nb.LowS <= truth && truth <= nb.HighS {
				covered++
			}
			width += (nb.HighS - nb.LowS) / truth / campaigns
		}
		cov := float64(covered) / campaigns
		t.Logf("shared=%v: T(true) = %.6g s; coverage %.3f over %d campaigns; mean relative width %.3f", shared, truth, cov, campaigns, width)
		if cov < 0.92 {
			t.Errorf("shared=%v: coverage %.3f < 0.92", shared, cov)
		}
		if width > 0.5 {
			t.Errorf("shared=%v: mean relative width %.3f: the interval says little", shared, width)
		}
	}
}

// TestClusterSamples: startup_samples and bandwidth_samples give the sample means as the
// network's values (mean of 0.9, 1.0, 1.1 ms is 1 ms; of 1.2, 1.25, 1.3 MB/s is 1.25 MB/s)
// and an interval of the makespan around the point; constants and samples of one parameter
// together, a single sample and a bandwidth interval reaching 0 are refused naming the line.
func TestClusterSamples(t *testing.T) {
	const head = "workstations: [{name: ws1, power: 1}, {name: ws2, power: 1}, {name: ws3, power: 1}, {name: ws4, power: 1}]\nnetwork:\n"
	prog, _ := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	prog.Allocation = nil
	cl, err := ParseCluster("c.yaml", []byte(head+"  startup_samples: [0.9ms, 1ms, 1.1ms]\n  bandwidth_samples: [1.2MB/s, 1.25MB/s, 1.3MB/s]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cl.Network.Startup - 0.001; d > 1e-15 || d < -1e-15 || cl.Network.Bandwidth != 1.25e6 {
		t.Errorf("point %g s, %g B/s; want the means 0.001, 1.25e6", cl.Network.Startup, cl.Network.Bandwidth)
	}
	nb, err := NetworkBounds(context.Background(), prog, cl, BuildOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	point, _ := makespan(prog, cl, BuildOptions{}, Options{})
	if !(nb.LowS < point && point < nb.HighS) || !nb.Monotone {
		t.Errorf("interval %v around %g", nb, point)
	}
	for _, tc := range []struct{ body, want string }{
		{"  startup: 1ms\n  startup_samples: [1ms, 2ms]\n  bandwidth: 1e6\n", "c.yaml:4: network.startup_samples: give startup or startup_samples, not both"},
		{"  bandwidth_samples: [1e6]\n", "c.yaml:3: network.bandwidth_samples: 1 samples: an interval needs 2"},
		{"  bandwidth_samples: [1e6, -1]\n", "c.yaml:3: network.bandwidth_samples[1]"},
		{"  bandwidth_samples: [1, 1e9]\n", "c.yaml:3: network \"network\": the 95 % interval of the bandwidth"},
	} {
		c, err := ParseCluster("c.yaml", []byte(head+tc.body))
		if err == nil {
			_, err = NetworkBounds(context.Background(), prog, c, BuildOptions{}, Options{})
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}
