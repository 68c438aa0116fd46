package solveapp

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
)

// Input is a parsed model file: a clusterperf model (with its class switching and
// capacities in File) or a JMVA document (Doc, with the what-if analysis that maps onto a
// sweep in WhatIf).
type Input struct {
	Model  *qn.Model
	File   *qn.ModelFile // a clusterperf model file; nil for .jmva
	Name   string
	Doc    *jmva.Document // a .jmva file
	WhatIf *jmva.WhatIf   // the file's what-if analysis that maps onto a sweep
	Notes  []string
}

// ModelInput is the Input of a model built in memory (the explorer's model at its slider
// values): no file, no what-if analysis.
func ModelInput(name string, m *qn.Model) *Input { return &Input{Model: m, Name: name} }

// ParseInput reads path with read and parses it once: *.jmva through package jmva, anything
// else as a clusterperf model file (qn.ParseModelFile). Errors are input errors (exit 2)
// naming file and line.
func ParseInput(read func(string) ([]byte, error), path string) (*Input, error) {
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(filepath.Ext(path), ".jmva") {
		mf, err := qn.ParseModelFile(path, data)
		if err != nil {
			return nil, app.Input(err)
		}
		return &Input{Model: mf.Model, Name: mf.Name, File: mf}, nil
	}
	doc, err := jmva.Read(path, data)
	if err != nil {
		return nil, app.Lib(err)
	}
	in := &Input{Model: doc.Model, Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Doc: doc}
	if w := doc.WhatIf; w != nil {
		if _, _, err := w.Sweep(doc.Model); err != nil {
			if !errors.Is(err, qn.ErrUnsupported) {
				return nil, app.Inputf("%s: %w", path, err)
			}
			in.Notes = append(in.Notes, "the file's what-if analysis was not run: "+err.Error())
		} else {
			in.WhatIf = w
		}
	}
	return in, nil
}

// Special reports whether the model file holds class switching or finite capacities, which
// only its own solver (qn.ModelFile.Solve) and the simulator take into account.
func (in *Input) Special() bool {
	return in.File != nil && (in.File.Switch != nil || in.File.Capacity != nil)
}

// Features names what the model file holds beyond its Model.
func (in *Input) Features() string {
	var f []string
	if in.File.Switch != nil {
		f = append(f, "class switching (routing: switch:)")
	}
	if in.File.Capacity != nil {
		f = append(f, "finite capacities (capacity:)")
	}
	return strings.Join(f, " and ")
}

// Description is the JMVA export's description: the .jmva file's own, or where it came from.
func (in *Input) Description() string {
	if in.Doc != nil && in.Doc.Description != "" {
		return in.Doc.Description
	}
	return "exported by clusterperf solve from " + in.Name
}

// solveFunc solves a model with the named solver (qn.Solve, or a model file's
// qn.ModelFile.Solve, which covers class switching and finite capacities).
type solveFunc func(ctx context.Context, solver string, opt qn.AMVAOptions) (*qn.Result, error)

// solver is how m is solved: through its model file when m is the file's model (class
// switching, capacities), else qn.Solve.
func (in *Input) solver(m *qn.Model) solveFunc {
	if in.File != nil && m == in.File.Model {
		return in.File.Solve
	}
	return func(ctx context.Context, solver string, opt qn.AMVAOptions) (*qn.Result, error) {
		return qn.Solve(ctx, m, solver, opt)
	}
}

// CheckExport refuses, before any work, a model JMVA cannot express (fork/join nodes, an
// open class at a load-dependent station, …): --export-jmva FILE (path "": nothing to check).
func CheckExport(path string, m *qn.Model) error {
	if path == "" {
		return nil
	}
	if err := jmva.Write(io.Discard, &jmva.Document{Model: m}); err != nil {
		return app.Inputf("--export-jmva %s: %w", path, err)
	}
	return nil
}
