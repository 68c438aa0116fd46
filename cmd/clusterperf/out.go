package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	c.Format(o.format)
	if o.csvTable != "" && o.format != "csv" {
		c.Add("--csv-table %q needs --format csv", o.csvTable)
	}
	c.Output("report", o.report, ".html", ".htm")
	if o.report == "" || o.rep == nil {
		return
	}
	if pf := o.rep.cmd.Flags().Lookup("plot"); pf != nil && pf.Value.String() != "" {
		o.rep.plotPath = pf.Value.String()
		o.rep.plotStamp = fileStamp(o.rep.plotPath)
		if samePath(o.rep.plotPath, o.report) {
			c.Add("--report %q: the same file as --plot", o.report)
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

// page builds the report page (htmlreport.Assemble) of the rendered document: the command
// line and inputs of the flags the user set (htmlreport.NewRun); the plot is the one the
// command wrote in this run, else the result's figure (figurer).
func (r *reportRun) page() (*htmlreport.Page, error) {
	var flags []htmlreport.Flag
	r.cmd.Flags().Visit(func(f *pflag.Flag) {
		flags = append(flags, htmlreport.Flag{Name: f.Name, Value: f.Value.String(), Bool: f.Value.Type() == "bool", String: f.Value.Type() == "string"})
	})
	run := htmlreport.NewRun(r.cmd.CommandPath(), flags, r.cmd.Flags().Args())
	run.Version, run.Doc = version(), r.doc
	if r.plotPath != "" && fileStamp(r.plotPath) != r.plotStamp {
		run.PlotPath = r.plotPath
	}
	switch f := r.doc.(type) {
	case figurer:
		run.Figure = f.figure
	case appFigurer:
		run.Figure = f.Figure
	}
	return htmlreport.Assemble(run)
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
