package report

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// blockingDoc is a document whose encoding (JSON: MarshalJSON; table and CSV: Tables) waits
// until release is closed: a stand-in for a huge surface that takes seconds to encode.
type blockingDoc struct {
	release chan struct{}
	X       float64 `json:"x"`
}

func (d *blockingDoc) MarshalJSON() ([]byte, error) {
	<-d.release
	return []byte(`{"x":1}`), nil
}

func (d *blockingDoc) Tables() []*Table {
	<-d.release
	t := &Table{Header: []string{"x"}}
	t.Add(d.X)
	return []*Table{t}
}
func (d *blockingDoc) NoteLines() []string { return nil }

// TestRenderContextCancel: cancelling the context while the document is still being encoded
// makes RenderContext return context.Canceled at once, with nothing written (review: Ctrl-C
// waited for a 600 × 600 surface's JSON). Render, with no context, would wait for release.
func TestRenderContextCancel(t *testing.T) {
	for _, f := range []string{"json", "table", "csv"} {
		doc := &blockingDoc{release: make(chan struct{}), X: 1}
		ctx, cancel := context.WithCancel(context.Background())
		var out bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- RenderContext(ctx, &out, doc, Options{Format: f}) }()
		time.Sleep(10 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) || out.Len() > 0 {
				t.Errorf("%s: %v, wrote %q; want context.Canceled and nothing", f, err, out.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: RenderContext did not return after cancel", f)
		}
		close(doc.release) // let the abandoned encoder finish
	}
}

// TestRenderContextSame: without cancellation RenderContext writes exactly Render's bytes
// in every format (a document larger than one write chunk included), and refuses what
// Render refuses (a NaN) with nothing written.
func TestRenderContextSame(t *testing.T) {
	big := &Table{Name: "big", Header: []string{"i", "x"}}
	for i := range 50000 {
		big.Add(i, math.Sqrt(float64(i)))
	}
	docs := []Document{&finiteDoc{X: 2.5}, tablesDoc{big}}
	for _, doc := range docs {
		for _, f := range []string{"json", "table", "csv"} {
			var a, b bytes.Buffer
			errA := Render(&a, doc, Options{Format: f})
			errB := RenderContext(context.Background(), &b, doc, Options{Format: f})
			ctx, cancel := context.WithCancel(context.Background())
			var c bytes.Buffer
			errC := RenderContext(ctx, &c, doc, Options{Format: f})
			cancel()
			if errA != nil || errB != nil || errC != nil || !bytes.Equal(a.Bytes(), b.Bytes()) || !bytes.Equal(a.Bytes(), c.Bytes()) {
				t.Errorf("%T %s: Render %d bytes (%v), RenderContext %d (%v) and %d (%v)", doc, f, a.Len(), errA, b.Len(), errB, c.Len(), errC)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	if err := RenderContext(ctx, &out, &finiteDoc{X: math.NaN()}, Options{Format: "json"}); err == nil || out.Len() > 0 {
		t.Errorf("NaN: %v, wrote %q", err, out.String())
	}
}

// tablesDoc is a document of given tables (its JSON is the tables' rows).
type tablesDoc []*Table

func (d tablesDoc) Tables() []*Table    { return d }
func (d tablesDoc) NoteLines() []string { return []string{"a note"} }
