// Package input is the one reader of every file named on the command line and of stdin
// ("-"): a size limit enforced while reading, so that devices (/dev/zero, /dev/urandom),
// pipes and FIFOs are bounded as regular files are (a size from the file's metadata cannot
// see them), and an open that never blocks (a FIFO without a writer reads as empty instead
// of waiting forever). Its refusals wrap fault.ErrInput (fault.ErrTooLarge over the limit)
// and name the file; Excerpt and Line are the helpers parsers use to quote at most a short
// piece of the input in their refusals and to name the line.
package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxBytes is the size limit of a file argument or stdin (64 MiB): the largest input any
// reader accepts (mpiP reports, CSV data). Readers with a smaller limit refuse the larger
// file before parsing it (model files: spec.MaxFileSize, 1 MiB; .jmva: jmva.MaxFileBytes,
// 16 MiB) or pass their limit to ReadLimit (PNML: tpn.MaxPNMLBytes, 16 MiB).
const MaxBytes = 64 << 20

// Stdin is the argument that names standard input.
const Stdin = "-"

// Error is a refusal of a file as a whole (missing, unreadable, a directory, over the
// limit). It wraps fault.ErrInput, or fault.ErrTooLarge for a file over the limit.
type Error struct {
	File string
	Msg  string // the whole message, naming File
	Kind error  // fault.ErrInput or fault.ErrTooLarge
	Err  error  // the underlying error, if any
}

func (e *Error) Error() string { return e.Msg }

// unreadable is the refusal of a file that cannot be opened or read.
func unreadable(file, why string, err error) error {
	return &Error{File: file, Msg: "cannot read " + file + ": " + why, Kind: fault.ErrInput, Err: err}
}

// Unwrap returns the class and the cause.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// Read reads the file path (stdin for "-") within MaxBytes.
func Read(path string) ([]byte, error) { return ReadLimit(path, MaxBytes) }

// ReadLimit reads the file path (stdin for "-") and refuses it, with an Error wrapping
// fault.ErrTooLarge, as soon as more than limit bytes have been read: a regular file is
// checked against its size first, a device, pipe or FIFO while it is read (at most limit+1
// bytes are read and held). The file is opened non-blocking: a FIFO with no writer reads
// as empty at once. Directories, sockets and other special files are refused.
func ReadLimit(path string, limit int64) ([]byte, error) {
	name := path
	var f *os.File
	if path == Stdin {
		name, f = "stdin", os.Stdin
	} else {
		var err error
		if f, err = open(path); err != nil {
			return nil, unreadable(path, reason(err), err)
		}
		defer f.Close()
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, unreadable(name, reason(err), err)
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		return nil, unreadable(name, "is a directory, not a file", nil)
	case m&(fs.ModeSocket|fs.ModeIrregular) != 0:
		return nil, unreadable(name, "not a file (a socket or special file)", nil)
	case m.IsRegular() && fi.Size() > limit:
		return nil, tooLarge(name, fmt.Sprintf("%d bytes", fi.Size()), limit)
	}
	b, err := readAll(f, fi, limit)
	if err != nil && err != errOver {
		return nil, unreadable(name, reason(err), err)
	}
	if err == errOver || int64(len(b)) > limit {
		return nil, tooLarge(name, "more than "+human(limit)+" read", limit)
	}
	return b, nil
}

// errOver: more than the limit was read.
var errOver = errors.New("over the limit")

// readAll reads at most limit+1 bytes of f: a regular file into one buffer of its size, a
// device or pipe in 1 MiB chunks joined at the end (at most about twice what was read is
// held, never a doubling buffer's slack).
func readAll(f *os.File, fi fs.FileInfo, limit int64) ([]byte, error) {
	r := io.LimitReader(f, limit+1)
	if fi.Mode().IsRegular() && fi.Size() > 0 {
		buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+1))
		_, err := buf.ReadFrom(r)
		if errors.Is(err, syscall.EAGAIN) {
			err = nil
		}
		return buf.Bytes(), err
	}
	var chunks [][]byte
	total := 0
	for {
		c := make([]byte, 1<<20)
		n, err := io.ReadFull(r, c)
		if n > 0 {
			chunks = append(chunks, c[:n])
			total += n
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF || errors.Is(err, syscall.EAGAIN) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(total) > limit {
		return nil, errOver // refused: not joined
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// open opens path for reading without blocking on a FIFO (O_NONBLOCK; os.NewFile then
// reads a pipe through the runtime's poller).
func open(path string) (*os.File, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

func tooLarge(name, size string, limit int64) error {
	return &Error{File: name, Kind: fault.ErrTooLarge,
		Msg: fmt.Sprintf("%s: %s; this input is limited to %s (a device or an endless pipe is read only up to the limit)", name, size, human(limit))}
}

// human prints a byte count as "64 MiB" or "1024 bytes".
func human(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB (%d bytes)", n>>10, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// reason is the cause of a failed open or read without the path the caller names anyway.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ExcerptRunes is the most characters Excerpt quotes.
const ExcerptRunes = 40

// Excerpt is s quoted for a refusal, cut to ExcerptRunes characters ("…" marks the cut):
// a refusal quotes what it refuses, never megabytes of the input.
func Excerpt(s string) string {
	if c := cut(s); c != s {
		return fmt.Sprintf("%q", strings.TrimSuffix(c, "…")) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Line is the 1-based line of data at byte offset off (the last line for an offset past
// the end).
func Line(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// Short replaces, in place, every string argument of a refusal's format arguments longer
// than 2·ExcerptRunes characters by its first ExcerptRunes characters and "…", so that a
// message quoting the file's text (%q of a value, a name) stays short whatever the file
// holds. It returns args.
func Short(args []any) []any {
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > 2*ExcerptRunes {
			args[i] = cut(s)
		}
	}
	return args
}

// cut is s cut to ExcerptRunes characters and "…" (s itself when shorter).
func cut(s string) string {
	n := 0
	for i := range s {
		if n == ExcerptRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Open opens path for reading without blocking (O_NONBLOCK: a FIFO without a writer does
// not wait). The caller checks the file's kind (Stat) before reading.
func Open(path string) (*os.File, error) { return open(path) }

// ReadRegular reads path as ReadLimit does, but refuses anything other than a regular file
// (a FIFO, a device, a directory) before reading: for files a program wrote itself, such as
// a study's shard files, where anything else is an error and a FIFO must not block.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := open(path)
	if err != nil {
		return nil, unreadable(path, reason(err), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, unreadable(path, reason(err), err)
	}
	if !fi.Mode().IsRegular() {
		return nil, unreadable(path, "not a regular file ("+kind(fi.Mode())+")", nil)
	}
	if fi.Size() > limit {
		return nil, tooLarge(path, fmt.Sprintf("%d bytes", fi.Size()), limit)
	}
	b, err := readAll(f, fi, limit)
	if err != nil && err != errOver {
		return nil, unreadable(path, reason(err), err)
	}
	if err == errOver || int64(len(b)) > limit {
		return nil, tooLarge(path, "more than "+human(limit)+" read", limit)
	}
	return b, nil
}

// kind names a file mode's type for a refusal.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
