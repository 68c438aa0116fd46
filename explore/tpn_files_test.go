package explore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/tpn"
)

// TestTPNClusterFiles: the explorer serves the clusters the tpn command accepts — one with a
// background_log (examples/tpn/cluster-classes.yaml) and one whose network is given by OSU
// benchmark outputs (netbench/testdata) — instead of refusing them with "this reader has no
// file access" (hostile review 7, P2-7), and its makespan at the file's values equals the
// command's (tpnapp.Run on the same files read by tpnapp.Parse, the tpn command's reader).
func TestTPNClusterFiles(t *testing.T) {
	osu := func(f string) string { a, _ := filepath.Abs(filepath.Join("..", "netbench", "testdata", f)); return a }
	dir := t.TempDir()
	bench := filepath.Join(dir, "bench.yaml")
	body := "workstations: [{name: ws1, power: 1}, {name: ws2, power: 1}, {name: ws3, power: 1}, {name: ws4, power: 1}]\nnetwork:\n  benchmark: [" + osu("osu_latency.txt") + ", " + osu("osu_bw.txt") + "]\n"
	if err := os.WriteFile(bench, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	const prog = "../examples/tpn/matmul.yaml"
	for _, cluster := range []string{"../examples/tpn/cluster-classes.yaml", bench} {
		m, err := Load(prog, read(t, prog), cluster, read(t, cluster))
		if err != nil {
			t.Fatalf("%s: %v", cluster, err)
		}
		v := Values{}
		for _, p := range m.Params() {
			v[p.ID] = p.Value
		}
		r, err := m.Eval(v)
		if err != nil {
			t.Fatalf("%s: %v", cluster, err)
		}
		p, cl, err := tpnapp.Parse(os.ReadFile, prog, cluster, tpn.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := tpnapp.Run(context.Background(), tpnapp.Request{Program: p, Cluster: cl})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Values["makespan_s"]; got != want.TimeS {
			t.Errorf("%s: explorer makespan %v, command %v", cluster, got, want.TimeS)
		}
	}
}
