package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"text/template"

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

// spmdCase is one burst configuration of the SPMD simulation (sections 2 and 3): the
// computation bursts' distribution and how many bursts an I/O burst follows.
type spmdCase struct {
	label, count string
	c            sim.SPMDConfig
}

// spmdCases lists section 2's configurations; BTIO (section 3) runs the first three.
func spmdCases() []spmdCase {
	return []spmdCase{
		{"exponential", "geometric (model)", sim.SPMDConfig{GeometricBursts: true}},
		{"exponential", "fixed", sim.SPMDConfig{}},
		{"erlang:4", "fixed", sim.SPMDConfig{CPU: sim.Erlang{K: 4}}},
		{"deterministic", "fixed", sim.SPMDConfig{CPU: sim.Deterministic{}}},
	}
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
		s.spmdCells(2, m, p, 4, cycles, spmdCases(), func(cfg spmdCase, est estimate) string {
			return fmt.Sprintf("| %d | %d | %s | %s | %.4f | %.4f ± %.4f | %+.1f %% |\n", p, c, cfg.label, cfg.count, pt.Time, est.Mean, est.Half, 100*(pt.Time-est.Mean)/est.Mean)
		})
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
	s.spmdCells(3, bm, 9, 3, cycles/3, spmdCases()[:3], func(cfg spmdCase, est estimate) string {
		return fmt.Sprintf("| %s | %s | %.2f s | %.2f ± %.2f s |\n", cfg.label, cfg.count, bpt.Time, est.Mean, est.Half)
	})
	return nil
}

// spmdCells appends a cell of the given section per configuration in cases: m simulated
// on p processors and d disks for `cycles` cycles (sim.ReplicateSPMD), its row printed by
// row.
func (s *study) spmdCells(section int, m *spmd.Model, p, d, cycles int, cases []spmdCase, row func(cfg spmdCase, est estimate) string) {
	for _, cfg := range cases {
		cfg.c.Cycles = cycles
		s.cells = append(s.cells, cell{section: section,
			run: func() (estimate, error) { return sim.ReplicateSPMD(m, p, d, cfg.c, s.seed, s.reps) },
			row: func(est estimate) string { return row(cfg, est) }})
	}
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

// documentTemplate is docs/studies.md's text, its tables' rows left to the cells
// (studies.md.tmpl: .Seed, .Reps, and .Rows, section k's rows at index k−1).
//
//go:embed studies.md.tmpl
var documentTemplate string

// document is docs/studies.md from every cell's estimate, in order.
func (s *study) document(ests []estimate) ([]byte, error) {
	rows := make([]string, 3)
	for k, c := range s.cells {
		rows[c.section-1] += c.row(ests[k])
	}
	t, err := template.New("studies.md.tmpl").Parse(documentTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, struct {
		Seed uint64
		Reps int
		Rows []string
	}{s.seed, s.reps, rows})
	return b.Bytes(), err
}

func absDir(dir string) (string, error) { return filepath.Abs(dir) }
