package simapp

import (
	"cmp"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
)

// spmdOnlyFlags and qnOnlyFlags are the simulate command's flags that apply to one kind of
// model.
var (
	spmdOnlyFlags = []string{"p", "d", "cpu", "cycles", "bursts"}
	qnOnlyFlags   = []string{"service", "discipline", "arrival", "think", "batches", "events", "max-events", "precision"}
)

// Model is a simulate input file decoded once: an SPMD model (a file with a top-level
// architecture field, Kind "spmd") or a queueing-network model file (Kind "qn").
type Model struct {
	Kind string
	SPMD *spmd.Model
	QN   *qn.ModelFile
}

// checkKind refuses a flag named in given (the flags set on the command line) that belongs
// to the other kind of model (kind "qn" or "spmd").
func checkKind(kind, path string, given map[string]bool) error {
	other, what := spmdOnlyFlags, "an SPMD model (a speedup file)"
	if kind == "spmd" {
		other, what = qnOnlyFlags, "a queueing network (a solve file)"
	}
	var set []string
	for _, f := range other {
		if given[f] {
			set = append(set, "--"+f)
		}
	}
	if len(set) == 0 {
		return nil
	}
	verb := "applies"
	if len(set) > 1 {
		verb = "apply"
	}
	return app.Inputf("%s %s to %s only; %s is %s (see clusterperf help simulate)", strings.Join(set, ", "), verb, what, path, map[string]string{"qn": "a queueing-network model", "spmd": "an SPMD model"}[kind])
}

// Decode reads the YAML data of path once, tells its kind by its top-level fields, refuses
// the flags in given that belong to the other kind, and decodes the model.
func Decode(path string, data []byte, given map[string]bool) (Model, error) {
	doc, err := modelfile.Parse(path, data)
	if err != nil {
		return Model{}, app.Input(err)
	}
	sm := Model{Kind: "qn"}
	if doc.Has("architecture") {
		sm.Kind = "spmd"
	}
	if err := checkKind(sm.Kind, path, given); err != nil {
		return sm, err
	}
	if sm.Kind == "spmd" {
		sm.SPMD, err = spmd.DecodeModel(doc)
	} else {
		sm.QN, err = qn.DecodeModelFile(doc)
	}
	return sm, app.Input(err)
}

// PrepareStudy decodes a queueing-network model for a sharded study and builds its
// simulator, refusing (before any shard runs) what the one-machine run would refuse. It
// returns the model file, its name (path when it has none) and the simulator.
func PrepareStudy(path string, data []byte, given map[string]bool, o Options) (*qn.ModelFile, string, *sim.Simulator, error) {
	sm, err := Decode(path, data, given)
	if sm.Kind == "spmd" {
		return nil, "", nil, app.Inputf("%s: an SPMD model: --shard/--slurm split the replications of a queueing network only (an SPMD simulation is short; run it on one machine)", path)
	}
	if err != nil {
		return nil, "", nil, err
	}
	mf := sm.QN
	s, err := NewSimulator(mf, mf.Model, o)
	if err != nil {
		return nil, "", nil, err
	}
	if err := s.CheckStudy(o.SimOptions()); err != nil {
		return nil, "", nil, app.Lib(err)
	}
	return mf, cmp.Or(mf.Name, path), s, nil
}
