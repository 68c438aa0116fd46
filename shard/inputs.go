package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
)

// MaxInputBytes bounds one input file HashInput reads (the model readers' own limits are
// lower); a larger file is refused with fault.ErrTooLarge.
const MaxInputBytes = 1 << 30

// HashInput describes the file arg names (relative to dir unless absolute) as an Input:
// its absolute path, size and SHA-256. A path that does not name a regular file is refused
// with fault.ErrInput.
func HashInput(dir, arg string) (Input, error) {
	path := arg
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	sum, size, err := hashFile(path)
	if err != nil {
		return Input{}, err
	}
	return Input{Arg: arg, Path: path, SizeBytes: size, SHA256: sum}, nil
}

func hashFile(path string) (string, int64, error) {
	fh, err := input.Open(path) // non-blocking: a FIFO is refused below, not waited on
	if err != nil {
		return "", 0, fmt.Errorf("%w: %v", fault.ErrInput, err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return "", 0, fmt.Errorf("%w: %v", fault.ErrInput, err)
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%w: %s is not a regular file", fault.ErrInput, path)
	}
	if fi.Size() > MaxInputBytes {
		return "", 0, fmt.Errorf("%w: %s: %d bytes, limit %d", fault.ErrTooLarge, path, fi.Size(), MaxInputBytes)
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(fh, MaxInputBytes+1))
	if err != nil {
		return "", 0, fmt.Errorf("%w: %s: %v", fault.ErrInput, path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// CheckInputs verifies that every input file of the plan still has the contents it had when
// the plan was made (read at its recorded absolute path, so from any directory). A file
// that is gone or changed is refused with fault.ErrInput naming it: the shards were computed
// from the old contents, and a merge that re-read the new file would mix two models.
func (p Plan) CheckInputs() error {
	for _, in := range p.Inputs {
		sum, _, err := hashFile(in.Path)
		if err != nil {
			return fmt.Errorf("input %s of the study (at %s when it was planned) cannot be read: %w; merge needs the files the shards were computed from", in.Arg, in.Path, err)
		}
		if sum != in.SHA256 {
			return fmt.Errorf("%w: input %s (%s) changed since the study was planned (sha256 %.12s… then, %.12s… now): the shards were computed from the old file; restore it, or run the study again in a new directory",
				fault.ErrInput, in.Arg, in.Path, in.SHA256, sum)
		}
	}
	return nil
}

// Resolve is the path to read for the argument arg: the input's absolute path when arg names
// one of the plan's inputs, else arg itself.
func (p Plan) Resolve(arg string) string {
	for _, in := range p.Inputs {
		if in.Arg == arg {
			return in.Path
		}
	}
	return arg
}
