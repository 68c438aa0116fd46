package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
)

// btioFile is the BTIO model of section 2's last table, relative to the repository root.
const btioFile = "examples/spmd/btio.yaml"

// estimate is one cell's simulated mean and 95 % half-width.
type estimate = sim.Estimate

// cell is one item of the study: run simulates it (from the seed and the cell's own
// replications alone), row prints its table row from the estimate.
type cell struct {
	section int // 1: expansion, 2: fork/join, 3: BTIO
	run     func() (estimate, error)
	row     func(e estimate) string
}

// study is the whole set of cells, in the document's order.
type study struct {
	seed  uint64
	reps  int
	cells []cell
}

type dist struct {
	name string
	d    sim.Dist
}

type spmdCase struct {
	label, count string
	c            sim.SPMDConfig
}

// newStudy lists the cells: reading the BTIO model at btioPath (which may be where a
// study's plan recorded it) and evaluating the analytic side, which is cheap.
func newStudy(seed uint64, quick bool, btioPath string) (*study, error) {
	reps, tasks, cycles := 16, 400, 3000
	if quick {
		reps, tasks, cycles = 4, 50, 400
	}
	s := &study{seed: seed, reps: reps}
	s.expansionCells(tasks)
	if err := s.forkJoinCells(cycles); err != nil {
		return nil, err
	}
	return s, s.btioCells(btioPath, cycles)
}

// expansionCells: section 1, a cell per U, arrival and demand distribution.
func (s *study) expansionCells(tasks int) {
	dists := []dist{{"exponential", sim.Exponential{}}, {"erlang:4", sim.Erlang{K: 4}}, {"hyperexp:4", sim.HyperExp{C2: 4}}, {"gamma:0.5", sim.Gamma{Shape: 0.5}}, {"pareto:2.5", sim.Pareto{Alpha: 2.5}}}
	for _, U := range []float64{0.2, 0.5, 0.8} {
		for _, a := range dists {
			demands := []dist{{"exponential", sim.Exponential{}}}
			if a.name != "exponential" {
				demands = append(demands, a)
			}
			for _, dd := range demands {
				s.cells = append(s.cells, cell{section: 1,
					run: func() (estimate, error) { return sim.ExpansionStudy(U, 5, a.d, dd.d, tasks, s.reps, s.seed), nil },
					row: func(e estimate) string {
						pred := 1 / (1 - U)
						return fmt.Sprintf("| %.1f | %s | %s | %.3f | %.3f ± %.3f | %+.1f %% |\n", U, a.name, dd.name, pred, e.Mean, e.Half, 100*(pred-e.Mean)/e.Mean)
					}})
			}
		}
	}
}

// forkJoinCells: section 2, a cell per (p, c) and burst configuration.
func (s *study) forkJoinCells(cycles int) error {
	for _, pc := range [][2]int{{4, 1}, {9, 1}, {16, 1}, {16, 4}, {64, 1}, {64, 8}} {
		p, c := pc[0], pc[1]
		ph := spmd.Phase{NIO: 5, SPar: 0.8 / 5, S0Com: 0.001 / 5, SRCom: 0.02 / 5, GExp: -0.5, W: 0.3, C: c, SRIO: 0.2}
		m := &spmd.Model{Arch: spmd.BusSIO, Phases: []spmd.Phase{ph}}
		e, err := spmd.NewEvaluator(m)
		if err != nil {
			return err
		}
		pt, err := e.Evaluate(p, 4)
		if err != nil {
			return err
		}
		for _, cfg := range []spmdCase{
			{"exponential", "geometric (model)", sim.SPMDConfig{GeometricBursts: true}},
			{"exponential", "fixed", sim.SPMDConfig{}},
			{"erlang:4", "fixed", sim.SPMDConfig{CPU: sim.Erlang{K: 4}}},
			{"deterministic", "fixed", sim.SPMDConfig{CPU: sim.Deterministic{}}},
		} {
			cfg.c.Cycles = cycles
			s.cells = append(s.cells, cell{section: 2,
				run: func() (estimate, error) { return sim.ReplicateSPMD(m, p, 4, cfg.c, s.seed, s.reps) },
				row: func(est estimate) string {
					return fmt.Sprintf("| %d | %d | %s | %s | %.4f | %.4f ± %.4f | %+.1f %% |\n", p, c, cfg.label, cfg.count, pt.Time, est.Mean, est.Half, 100*(pt.Time-est.Mean)/est.Mean)
				}})
		}
	}
	return nil
}

// btioCells: BTIO (examples/spmd/btio.yaml) at p = 9, d = 3, a cell per configuration.
func (s *study) btioCells(path string, cycles int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%v (run from the repository root)", err)
	}
	bm, err := spmd.ParseModel(btioFile, data)
	if err != nil {
		return err
	}
	be, err := spmd.NewEvaluator(bm)
	if err != nil {
		return err
	}
	bpt, err := be.Evaluate(9, 3)
	if err != nil {
		return err
	}
	for _, cfg := range []spmdCase{
		{"exponential", "geometric (model)", sim.SPMDConfig{GeometricBursts: true}},
		{"exponential", "fixed", sim.SPMDConfig{}},
		{"erlang:4", "fixed", sim.SPMDConfig{CPU: sim.Erlang{K: 4}}},
	} {
		cfg.c.Cycles = cycles / 3
		s.cells = append(s.cells, cell{section: 3,
			run: func() (estimate, error) { return sim.ReplicateSPMD(bm, 9, 3, cfg.c, s.seed, s.reps) },
			row: func(est estimate) string {
				return fmt.Sprintf("| %s | %s | %.2f s | %.2f ± %.2f s |\n", cfg.label, cfg.count, bpt.Time, est.Mean, est.Half)
			}})
	}
	return nil
}

// item is cell k's estimate as a shard file holds it (encoding/json's shortest decimal
// reads back as the same float64).
func (s *study) item(k int) (json.RawMessage, error) {
	e, err := s.cells[k].run()
	if err != nil {
		return nil, err
	}
	if math.IsNaN(e.Mean) || math.IsInf(e.Mean, 0) || math.IsNaN(e.Half) || math.IsInf(e.Half, 0) {
		return nil, fmt.Errorf("cell %d: estimate %v ± %v is not finite", k, e.Mean, e.Half)
	}
	return json.Marshal(e)
}

func decodeItem(raw json.RawMessage) (estimate, error) {
	var e estimate
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return e, err
	}
	if dec.More() {
		return e, errors.New("data after the estimate")
	}
	return e, nil
}

// document is docs/studies.md from every cell's estimate, in order.
func (s *study) document(ests []estimate) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Simulation studies\n\nGenerated by `go run ./examples/studies` (seed %d, %d replications per cell; 95 %% intervals). ", s.seed, s.reps)
	fmt.Fprintf(&b, "Every number below is reproducible from the seed.\n\n")
	fmt.Fprintf(&b, "## 1. The expansion factor of 002 under non-Poisson background load\n\n")
	fmt.Fprintf(&b, "A task needing 5 s of dedicated CPU runs on a processor-sharing CPU shared with a background stream of jobs (mean demand 1 s) at utilisation U; 002 predicts it takes 5/(1 − U). ")
	fmt.Fprintf(&b, "Table: simulated mean expansion (time ÷ 5 s) and the prediction's relative error ((predicted − simulated)/simulated), by inter-arrival and demand distribution. ")
	fmt.Fprintf(&b, "With Poisson (exponential) arrivals M/G/1-PS is insensitive to the demand distribution, so the prediction is exact there: those rows measure the simulation's own noise. Findings are in docs/studies-findings.md.\n\n")
	fmt.Fprintf(&b, "| U | arrivals | demands | 1/(1−U) | simulated | error |\n|---|---|---|---|---|---|\n")
	s.rows(&b, 1, ests)
	fmt.Fprintf(&b, "\n## 2. The fork/join approximation (000 eq. 16) and the exponential assumption\n\n")
	fmt.Fprintf(&b, "BUS-SIO, σ_p = 0.8 with n_IO = 5 computation bursts per I/O burst, σ_r = 0.02, σ_r0 = 0.001, w = 0.3, g(p) = p^-0.5, d = 4. ")
	fmt.Fprintf(&b, "The program is simulated directly: groups of c processors compute, wait for their slowest member, communicate through a contended network, and all groups meet at a barrier before the synchronous I/O. ")
	fmt.Fprintf(&b, "*Model assumptions* draws exponential bursts and a geometric number of bursts per I/O burst (as 000 §3.4 assumes); *fixed count* runs exactly n_IO bursts as programs do. Error = (eq. 16 − simulated)/simulated, per cycle.\n\n")
	fmt.Fprintf(&b, "| p | c | bursts | count | eq. 16 | simulated | error |\n|---|---|---|---|---|---|---|\n")
	s.rows(&b, 2, ests)
	fmt.Fprintf(&b, "\n**BTIO** (examples/spmd/btio.yaml, p = 9, d = 3, time per cycle of five steps; 000 Table 3 measured 11.5 s):\n\n| bursts | count | eq. 16 | simulated |\n|---|---|---|---|\n")
	s.rows(&b, 3, ests)
	return b.Bytes()
}

func (s *study) rows(b *bytes.Buffer, section int, ests []estimate) {
	for k, c := range s.cells {
		if c.section == section {
			b.WriteString(c.row(ests[k]))
		}
	}
}

// writeDoc writes the document through a temporary file and a rename.
func writeDoc(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-studies-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func absDir(dir string) (string, error) { return filepath.Abs(dir) }
