package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/report"
)

// outOptions are the output flags every command shares.
type outOptions struct {
	format   string
	csvTable string
	report   string     // --report FILE.html
	all      bool       // --all-tables (commands with detail tables: addAllTablesFlag)
	rep      *reportRun // shared by the copies of the options a command passes around
}

// reportRun is what --report needs from one run: the command (its flags and arguments
// name the inputs and the plot file), the document render wrote, and the state of the
// --plot file before the command ran (so a stale plot from an earlier run is not shown).
type reportRun struct {
	cmd       *cobra.Command
	doc       report.Document
	plotPath  string
	plotStamp string
	// autoDir: the temporary directory of the plot drawn for the page when --plot was not
	// given (plotFile), removed after the page is written.
	autoDir string
}

// plotFile is the file a command draws its plot to: explicit (--plot) when given; else,
// with --report, a temporary SVG the page includes (issue 29: every --report page has
// the command's plot, with or without --plot); else "" (no plot).
func (o outOptions) plotFile(explicit string) string {
	if explicit != "" || o.report == "" || o.rep == nil {
		return explicit
	}
	if o.rep.autoDir == "" {
		d, err := os.MkdirTemp("", "clusterperf-report-")
		if err != nil {
			return "" // the page then has no plot; the command's result is unaffected
		}
		o.rep.autoDir = d
	}
	o.rep.plotPath, o.rep.plotStamp = filepath.Join(o.rep.autoDir, "plot.svg"), ""
	return o.rep.plotPath
}

func addOutFlags(cmd *cobra.Command, o *outOptions) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "table", "output format: table (for people), json (one document), csv (one table)")
	f.StringVar(&o.csvTable, "csv-table", "", "--format csv: which table (see the command's help; default the first)")
	f.StringVar(&o.report, "report", "", "also write one self-contained HTML page (inputs, results, plots, notes, version) to FILE.html")
	o.rep = &reportRun{cmd: cmd}
	// The page is written after the command succeeded, so that the plot the command
	// writes after its result is on it. A failed command writes no page.
	prev := cmd.PostRunE
	cmd.PostRunE = func(c *cobra.Command, args []string) error {
		if prev != nil {
			if err := prev(c, args); err != nil {
				return err
			}
		}
		err := o.rep.write(o.report)
		if o.rep.autoDir != "" {
			os.RemoveAll(o.rep.autoDir)
		}
		return err
	}
}

// addAllTablesFlag registers --all-tables for a command whose result has detail tables
// (report.Table.Detail), which the table format otherwise only names.
func addAllTablesFlag(cmd *cobra.Command, o *outOptions) {
	cmd.Flags().BoolVar(&o.all, "all-tables", false, "table format: also print the detail tables (their names are listed at the end otherwise)")
}

func (o outOptions) check(c *flagCheck) {
	c.format(o.format)
	if o.csvTable != "" && o.format != "csv" {
		c.add("--csv-table %q needs --format csv", o.csvTable)
	}
	c.output("report", o.report, ".html", ".htm")
	if o.report == "" || o.rep == nil {
		return
	}
	if pf := o.rep.cmd.Flags().Lookup("plot"); pf != nil && pf.Value.String() != "" {
		o.rep.plotPath = pf.Value.String()
		o.rep.plotStamp = fileStamp(o.rep.plotPath)
		if samePath(o.rep.plotPath, o.report) {
			c.add("--report %q: the same file as --plot", o.report)
		}
	}
}

// render writes a command's one result value in the chosen format, and keeps it for the
// --report page.
func render(w io.Writer, doc report.Document, o outOptions) error {
	setAnswer(doc)
	err := report.RenderContext(renderContext(o), w, doc, report.Options{Format: o.format, CSVTable: o.csvTable, AllTables: o.all})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: while writing the result: %w", fault.ErrInterrupted, err)
	}
	var te *report.TableError
	if asTableError(err, &te) {
		return badInput(err)
	}
	if err == nil && o.rep != nil {
		o.rep.doc = doc
	}
	return err
}

// renderContext is the command's context, so that Ctrl-C stops the encoding and writing of
// a large result (a 600 × 600 surface is 168 MB of JSON); when it is already cancelled (a
// partial result printed after Ctrl-C) the rendering runs to its end.
func renderContext(o outOptions) context.Context {
	if o.rep != nil && o.rep.cmd != nil {
		if ctx := o.rep.cmd.Context(); ctx != nil && ctx.Err() == nil {
			return ctx
		}
	}
	return context.Background()
}

// write writes the --report page (nothing when path is empty or no result was rendered).
// A page over htmlreport.MaxBytes is refused with fault.ErrTooLarge (exit 2).
func (r *reportRun) write(path string) error {
	if path == "" || r.doc == nil {
		return nil
	}
	page, err := r.page()
	if err != nil {
		return err
	}
	b, err := htmlreport.Bytes(page)
	if err != nil {
		return badInput(fmt.Errorf("--report %s: %w", path, err))
	}
	if err := report.WriteAtomic(path, func(f *os.File) error { _, err := f.Write(b); return err }); err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	return nil
}

// page builds the report page from the rendered document: its JSON value, its tables
// (the "validation" table in the validation section), its notes, the inputs (the
// positional arguments and flag values that name existing files), the plot the command
// wrote, the command line and the version.
func (r *reportRun) page() (*htmlreport.Page, error) {
	var tables, validation []htmlreport.Table
	for _, t := range r.doc.Tables() {
		if t == nil || (t.Empty() && t.Name != "") {
			continue
		}
		ht := htmlreport.FromTables([]*report.Table{t})
		if t.Name == "validation" {
			validation = append(validation, ht...)
		} else {
			tables = append(tables, ht...)
		}
	}
	cmdLine, inputs := r.commandLine()
	title := r.cmd.CommandPath()
	var names []string
	for _, in := range inputs {
		names = append(names, filepath.Base(in.Name))
	}
	if len(names) > 0 {
		title += ": " + strings.Join(names, ", ")
	} else if args := r.cmd.Flags().Args(); len(args) > 0 {
		title += " " + strings.Join(args, " ")
	}
	p, err := htmlreport.FromResult(title, cmdLine, version(), r.doc, tables, nil)
	if err != nil {
		return nil, err
	}
	p.Validation = validation
	p.Inputs = inputs
	// The text output's notes are the document's NoteLines (the JSON "notes" plus any the
	// renderer adds); show those, once each.
	seen := map[string]bool{}
	var notes []string
	for _, n := range append(p.Notes, r.doc.NoteLines()...) {
		if !seen[n] {
			seen[n] = true
			notes = append(notes, n)
		}
	}
	p.Notes = notes
	if r.plotPath != "" && fileStamp(r.plotPath) != r.plotStamp {
		pl, err := htmlreport.PlotFile(filepath.Base(r.plotPath), r.plotPath)
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Sprintf("plot %s not included: %v", r.plotPath, err))
		} else {
			p.Plots = append(p.Plots, pl)
		}
	}
	if len(p.Plots) == 0 {
		p.Plots, p.Warnings = r.figurePlot(p.Plots, p.Warnings)
	}
	return p, nil
}

// figurePlot adds the figure of a result whose command drew no plot (figurer), drawn to a
// temporary SVG; a failure is a warning on the page, not a failed command.
func (r *reportRun) figurePlot(plots []htmlreport.Plot, warns []string) ([]htmlreport.Plot, []string) {
	var panels []report.Panel
	var err error
	switch f := r.doc.(type) {
	case figurer:
		panels, err = f.figure()
	case appFigurer:
		panels, err = f.Figure()
	default:
		return plots, warns
	}
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
	pl, err := htmlreport.PlotFile("figure", path)
	if err != nil {
		return plots, append(warns, "figure not included: "+err.Error())
	}
	return append(plots, pl), warns
}

// commandLine rebuilds the command line (the flags the user set, in name order, then the
// arguments) and reads the inputs it names: every argument or flag value that is an
// existing regular file, except the output files.
func (r *reportRun) commandLine() (string, []htmlreport.Input) {
	parts := []string{r.cmd.CommandPath()}
	var inputs []htmlreport.Input
	seen := map[string]bool{}
	addInput := func(v string) {
		if v == "" || seen[v] {
			return
		}
		if fi, err := os.Stat(v); err == nil && fi.Mode().IsRegular() {
			seen[v] = true
			inputs = append(inputs, reportInput(v, fi.Size()))
		}
	}
	r.cmd.Flags().Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		if f.Value.Type() == "bool" {
			parts = append(parts, "--"+f.Name)
			return
		}
		parts = append(parts, "--"+f.Name, shellQuote(v))
		switch f.Name {
		case "plot", "report":
			return
		}
		if f.Value.Type() == "string" {
			addInput(v)
		}
	})
	for _, a := range r.cmd.Flags().Args() {
		parts = append(parts, shellQuote(a))
		addInput(a)
	}
	return strings.Join(parts, " "), inputs
}

// reportInput reads an input file for the page: its text when small, a summary (size and
// line count, read in a stream) otherwise.
func reportInput(path string, size int64) htmlreport.Input {
	if size <= htmlreport.MaxInputBytes {
		b, err := os.ReadFile(path)
		if err != nil {
			return htmlreport.Input{Name: path, Summary: fmt.Sprintf("could not be read again: %v", err)}
		}
		return htmlreport.InputFile(path, b)
	}
	f, err := os.Open(path)
	if err != nil {
		return htmlreport.Input{Name: path, Summary: fmt.Sprintf("could not be read again: %v", err)}
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
				return htmlreport.Input{Name: path, Summary: fmt.Sprintf("%d bytes (could not be read again: %v)", size, err)}
			}
			break
		}
	}
	return htmlreport.Input{Name: path, Summary: fmt.Sprintf("%d bytes, %d lines (too large to show in full)", size, lines)}
}

// fileStamp identifies a file's current version (size and modification time), "" when
// there is none.
func fileStamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano())
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
