package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWrite: the file holds what was written, with 0666 less the umask, and no temporary
// is left.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteBytes(path, []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "hello\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	fi, _ := os.Stat(path)
	if want := os.FileMode(0o666 &^ umask); fi.Mode().Perm() != want {
		t.Errorf("mode %v, want %v", fi.Mode().Perm(), want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, Prefix+"*")); len(left) != 0 {
		t.Errorf("temporaries left: %v", left)
	}
}

// TestWriteFailureKeepsOld: a failing write leaves the old file intact and no temporary;
// the writer's error is returned as it is.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteTemp(path, ".tmp-x-", func(f *os.File) error {
		f.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file now %q, want the old content", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) != 0 {
		t.Errorf("temporaries left: %v", left)
	}
}

// TestWriteMissingDir: a missing directory is an error naming the path.
func TestWriteMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nodir", "out.txt")
	if err := WriteBytes(path, nil); err == nil {
		t.Error("no error for a missing directory")
	}
}
