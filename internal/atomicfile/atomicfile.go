// Package atomicfile is the project's one atomic file writer: a file is written through a
// temporary in the same directory, synced, and renamed into place, so a reader (or a
// failure) never sees a half-written file and a good file is never replaced by a broken
// one. report.WriteAtomic, htmlreport.Write and shard's files all use it.
package atomicfile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Prefix starts the name of the temporaries Write creates (".clusterperf-PID-RANDOM"),
// so tests can check that none is left behind.
const Prefix = ".clusterperf-"

// Write writes path through a temporary named Prefix… in path's directory: write fills
// it, then it is synced, closed and renamed over path. On any error the temporary is
// removed and path is untouched. The file gets the mode a plain create would (0666 less
// the umask), not os.CreateTemp's 0600. Errors from write are returned as they are; the
// others name path.
func Write(path string, write func(*os.File) error) error {
	return WriteTemp(path, Prefix, write)
}

// WriteTemp is Write with the temporary named prefix + "PID-RANDOM" (package shard names
// its temporaries ".tmp-FILE-" so that its status scan can report an interrupted shard).
func WriteTemp(path, prefix string, write func(*os.File) error) error {
	f, err := CreateTemp(filepath.Dir(path), prefix)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// WriteBytes writes data to path atomically (Write).
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// CreateTemp creates a new file prefix + "PID-RANDOM" in dir, opened for reading and
// writing, with mode 0666 less the umask. It retries on a name collision (100 times).
func CreateTemp(dir, prefix string) (*os.File, error) {
	var err error
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), rand.Uint32()))
		var f *os.File
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return f, nil
		}
		if !os.IsExist(err) {
			return nil, err
		}
	}
	return nil, err
}
