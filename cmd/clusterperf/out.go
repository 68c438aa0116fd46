package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/report"
)

// outOptions are the output flags every command shares.
type outOptions struct {
	format   string
	csvTable string
}

func addOutFlags(cmd *cobra.Command, o *outOptions) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "table", "output format: table (for people), json (one document), csv (one table)")
	f.StringVar(&o.csvTable, "csv-table", "", "--format csv: which table (see the command's help; default the first)")
}

func (o outOptions) check(c *flagCheck) {
	c.format(o.format)
	if o.csvTable != "" && o.format != "csv" {
		c.add("--csv-table %q needs --format csv", o.csvTable)
	}
}

// render writes a command's one result value in the chosen format.
func render(w io.Writer, doc report.Document, o outOptions) error {
	err := report.Render(w, doc, report.Options{Format: o.format, CSVTable: o.csvTable})
	var te *report.TableError
	if asTableError(err, &te) {
		return badInput(err)
	}
	return err
}
