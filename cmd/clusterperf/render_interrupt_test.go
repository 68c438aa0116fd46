package main

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
)

// slowDoc is a result whose tables wait for release: a stand-in for a large surface whose
// rendering takes seconds (a 600 × 600 speedup surface is 168 MB of JSON).
type slowDoc struct{ release chan struct{} }

func (d slowDoc) Tables() []*report.Table {
	<-d.release
	t := &report.Table{Header: []string{"x"}}
	t.Add(1.0)
	return []*report.Table{t}
}
func (d slowDoc) NoteLines() []string { return nil }

// TestRenderInterrupt: Ctrl-C (the command's context cancelled) while a result is being
// rendered stops it at once with exit 130 and nothing written (review: Ctrl-C waited for
// the whole JSON); a result rendered after Ctrl-C (a partial result) is still written in full.
func TestRenderInterrupt(t *testing.T) {
	c := &cobra.Command{}
	ctx, cancel := context.WithCancel(context.Background())
	c.SetContext(ctx)
	o := outOptions{format: "table", rep: &reportRun{cmd: c}}
	doc := slowDoc{release: make(chan struct{})}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- render(&out, doc, o) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, fault.ErrInterrupted) || fault.ExitCode(err) != fault.ExitInterrupted || out.Len() > 0 {
			t.Errorf("render after Ctrl-C: %v (exit %d), wrote %q; want exit 130 and nothing", err, fault.ExitCode(err), out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("render did not stop after Ctrl-C")
	}
	close(doc.release)
	out.Reset()
	if err := render(&out, slowDoc{release: doc.release}, o); err != nil || out.Len() == 0 {
		t.Errorf("partial result after Ctrl-C: %v, wrote %q; want it written", err, out.String())
	}
}
