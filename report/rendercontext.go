package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// writeChunk is how many bytes RenderContext writes between checks of its context.
const writeChunk = 1 << 20

// RenderContext is Render that gives up as soon as ctx is cancelled (Ctrl-C), returning
// ctx.Err() (review: a 600 × 600 speedup surface took seconds to encode as JSON, ~170 MB, and
// Ctrl-C waited for it). The document is encoded off the caller's goroutine into memory
// (encoding/json cannot be stopped midway); on cancellation RenderContext returns at once and
// that goroutine finishes its encoding and drops it (the caller must not change doc
// afterwards; a command exits). The bytes are then written in chunks of 1 MiB with a check
// of ctx before each, so a slow terminal or pipe is interruptible too. The output is byte for
// byte Render's; an error (non-finite value, unknown table or format) writes nothing.
// A table or CSV is not held whole: it is rendered through a pipe in chunks (renderPiped),
// so a streamed table (Table.Stream) of millions of rows never is in memory at once.
func RenderContext(ctx context.Context, w io.Writer, doc Document, o Options) error {
	if ctx == nil || ctx.Done() == nil {
		return Render(w, doc, o)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if o.Format != "json" {
		return renderPiped(ctx, w, doc, o)
	}
	type out struct {
		b   []byte
		err error
	}
	ch := make(chan out, 1) // buffered: an abandoned encoder never blocks
	go func() {
		b, err := renderBytes(doc, o)
		ch <- out{b, err}
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		return writeChunks(ctx, w, r.b)
	}
}

// renderBytes is Render's output in memory (JSON without a second copy).
func renderBytes(doc Document, o Options) ([]byte, error) {
	if o.Format == "json" {
		if err := CheckFinite(doc); err != nil {
			return nil, err
		}
		return jsonBytes(doc)
	}
	var buf bytes.Buffer
	err := Render(&buf, doc, o)
	return buf.Bytes(), err
}

// jsonBytes is v indented by two spaces, with a final newline (WriteJSON's bytes).
func jsonBytes(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("result cannot be written as JSON: %w", err)
	}
	return append(b, '\n'), nil
}

// writeChunks writes b to w in writeChunk pieces, returning ctx.Err() when ctx is cancelled
// between two of them.
func writeChunks(ctx context.Context, w io.Writer, b []byte) error {
	for len(b) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(b), writeChunk)
		if _, err := w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// renderPiped is RenderContext for the table and CSV formats: Render runs on its own
// goroutine into a pipe, buffered in writeChunk pieces, and each piece is copied to w as it
// comes. Ctrl-C closes the pipe: the copy returns ctx.Err() at once and Render's next write
// fails, so it stops. Render's errors (non-finite values, an unknown table or format) come
// before its first byte and the first writeChunk bytes are held back, so an error writes
// nothing.
func renderPiped(ctx context.Context, w io.Writer, doc Document, o Options) error {
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriterSize(pw, writeChunk)
		err := Render(bw, doc, o)
		if err == nil {
			err = bw.Flush()
		}
		pw.CloseWithError(err) // nil: the reader gets io.EOF
	}()
	stop := context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	defer stop()
	defer pr.Close() // an early return stops the renderer at its next write
	buf := make([]byte, writeChunk)
	for {
		n, err := pr.Read(buf)
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
}
