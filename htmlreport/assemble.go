package htmlreport

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/clusterperf/clusterperf/report"
)

// Run is one command run as its --report page sees it: the title, command line and
// version, the document the command rendered, the inputs it named, the plot file it wrote
// in this run ("" when none) and, for a result with a figure of its own, Figure (nil: none),
// drawn when no plot was written.
type Run struct {
	Title, CommandLine, Version string
	Doc                         report.Document
	Inputs                      []Input
	PlotPath                    string
	Figure                      func() ([]report.Panel, error)
}

// Assemble builds the page of a run: the document's JSON value, its tables (the
// "validation" table in the validation section), its notes once each (the JSON "notes"
// and the text output's NoteLines), the inputs, and the plot (or the figure).
func Assemble(r Run) (*Page, error) {
	var tables, validation []Table
	for _, t := range r.Doc.Tables() {
		if t == nil || (t.Empty() && t.Name != "") {
			continue
		}
		ht := FromTables([]*report.Table{t})
		if t.Name == "validation" {
			validation = append(validation, ht...)
		} else {
			tables = append(tables, ht...)
		}
	}
	p, err := FromResult(r.Title, r.CommandLine, r.Version, r.Doc, tables, nil)
	if err != nil {
		return nil, err
	}
	p.Validation = validation
	p.Inputs = r.Inputs
	seen := map[string]bool{}
	var notes []string
	for _, n := range append(p.Notes, r.Doc.NoteLines()...) {
		if !seen[n] {
			seen[n] = true
			notes = append(notes, n)
		}
	}
	p.Notes = notes
	if r.PlotPath != "" {
		pl, err := PlotFile(filepath.Base(r.PlotPath), r.PlotPath)
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Sprintf("plot %s not included: %v", r.PlotPath, err))
		} else {
			p.Plots = append(p.Plots, pl)
		}
	}
	if len(p.Plots) == 0 && r.Figure != nil {
		p.Plots, p.Warnings = figurePlot(r.Figure, p.Plots, p.Warnings)
	}
	return p, nil
}

// figurePlot adds the figure of a result whose command drew no plot, drawn to a temporary
// SVG; a failure is a warning on the page, not a failed command.
func figurePlot(figure func() ([]report.Panel, error), plots []Plot, warns []string) ([]Plot, []string) {
	panels, err := figure()
	if err != nil || len(panels) == 0 {
		if err != nil {
			warns = append(warns, "figure not drawn: "+err.Error())
		}
		return plots, warns
	}
	dir, err := os.MkdirTemp("", "clusterperf-figure-")
	if err != nil {
		return plots, append(warns, "figure not drawn: "+err.Error())
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "figure.svg")
	if err := report.SaveFigure(path, panels...); err != nil {
		return plots, append(warns, "figure not drawn: "+err.Error())
	}
	pl, err := PlotFile("figure", path)
	if err != nil {
		return plots, append(warns, "figure not included: "+err.Error())
	}
	return append(plots, pl), warns
}

// ReadInput reads an input file of size bytes for the page: its text when small (at most
// MaxInputBytes), a summary (size and line count, read in a stream) otherwise.
func ReadInput(path string, size int64) Input {
	if size <= MaxInputBytes {
		b, err := os.ReadFile(path)
		if err != nil {
			return Input{Name: path, Summary: fmt.Sprintf("could not be read again: %v", err)}
		}
		return InputFile(path, b)
	}
	f, err := os.Open(path)
	if err != nil {
		return Input{Name: path, Summary: fmt.Sprintf("could not be read again: %v", err)}
	}
	defer f.Close()
	lines := 0
	br := bufio.NewReader(f)
	buf := make([]byte, 64<<10)
	for {
		n, err := br.Read(buf)
		lines += bytes.Count(buf[:n], []byte("\n"))
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return Input{Name: path, Summary: fmt.Sprintf("%d bytes (could not be read again: %v)", size, err)}
			}
			break
		}
	}
	return Input{Name: path, Summary: fmt.Sprintf("%d bytes, %d lines (too large to show in full)", size, lines)}
}
