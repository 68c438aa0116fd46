package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// WriteResult is the one call a command's --report FILE.html needs: the result value (the
// one its JSON renderer writes), the tables its text renderer prints, its plots, and the
// input files; the page is written atomically to path with the umask's mode.
func WriteResult(path, title, command, version string, result any, tables []Table, plots []Plot, inputs []Input) error {
	if !strings.HasSuffix(strings.ToLower(path), ".html") && !strings.HasSuffix(strings.ToLower(path), ".htm") {
		return fmt.Errorf("--report %q: %w: the file name must end in .html", path, fault.ErrInput)
	}
	p, err := FromResult(title, command, version, result, tables, plots)
	if err != nil {
		return err
	}
	p.Inputs = inputs
	return Write(path, p)
}

// PlotFile reads a plot a command wrote (FILE.svg or FILE.png) for the page.
func PlotFile(title, path string) (Plot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Plot{}, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		return Plot{Title: title, SVG: b}, nil
	case ".png":
		return Plot{Title: title, PNG: b}, nil
	}
	return Plot{}, fmt.Errorf("plot %q: %w: want .svg or .png", path, fault.ErrInput)
}
