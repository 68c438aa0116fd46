package shard

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// blob is a JSON string result of about n bytes.
func blob(n int) json.RawMessage { return json.RawMessage(strconv.Quote(strings.Repeat("x", n))) }

// A shard's size is bounded where it is written and where it is read (issue 32: shard files
// were read up to 512 MiB each, and merge held every one): a shard whose results pass
// MaxFileBytes fails (its marker says why and what to do) instead of writing a file no merge
// could read; a study whose shard files pass MaxStudyBytes is refused from their sizes
// before any is read.
func TestShardSizeBounded(t *testing.T) {
	dir := t.TempDir()
	p, err := NewPlan("toy", []string{"a"}, 1, Spec{Items: 2, N: 1}, "v")
	if err != nil {
		t.Fatal(err)
	}
	err = Run(dir, p, 0, func(int) (json.RawMessage, error) { return blob(MaxFileBytes / 2), nil })
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "more shards") {
		t.Fatalf("oversized shard: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName(0, 1))); err == nil {
		t.Error("an oversized shard file was written")
	}
	st, err := ReadStatus(dir)
	if err != nil || len(st.Failed) != 1 || !strings.Contains(st.Errors["0"], "more than the") {
		t.Errorf("status of the oversized shard: %+v %v", st, err)
	}

	// a study of shard files beyond MaxStudyBytes (sparse files: nothing is read)
	big := t.TempDir()
	if err := WritePlan(big, p); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileName(0, 2), FileName(1, 2)} {
		f, err := os.Create(filepath.Join(big, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(MaxStudyBytes/2 + 1)
		f.Close()
	}
	if _, err := Merge(big); !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "a study may have") {
		t.Errorf("study beyond MaxStudyBytes: %v", err)
	}
	// one shard file beyond MaxFileBytes
	one := t.TempDir()
	f, _ := os.Create(filepath.Join(one, FileName(0, 1)))
	f.Truncate(MaxFileBytes + 1)
	f.Close()
	if _, err := Read(filepath.Join(one, FileName(0, 1))); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("shard file beyond MaxFileBytes: %v", err)
	}
}

// BenchmarkReadAtLimit reads a shard file just under MaxFileBytes (64 MiB: 60 000 items of
// about 1 KiB): strict JSON decoding and the manifest checks.
func BenchmarkReadAtLimit(b *testing.B) {
	dir := b.TempDir()
	const items = 60_000
	p, err := NewPlan("toy", []string{"a"}, 1, Spec{Items: items, N: 1}, "v")
	if err != nil {
		b.Fatal(err)
	}
	res := blob(MaxFileBytes/items - 40)
	if err := Run(dir, p, 0, func(int) (json.RawMessage, error) { return res, nil }); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, FileName(0, 1))
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	for b.Loop() {
		if _, err := Read(path); err != nil {
			b.Fatal(err)
		}
	}
}

// Refusals of a damaged study file speak of its keys and lines, never of Go's types (before:
// "json: cannot unmarshal string into Go struct field File.manifest.items of type int").
func TestStudyFileMessages(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"{\"manifest\":\n{\"items\": \"x\"}}", "s.json:2: manifest.items: want a whole number, not a JSON string"},
		{`{"manifest":{}, "extra": 1}`, `s.json: unknown key "extra"`},
		{`{"manifest":`, "the JSON ends early"},
		{"{\n\"manifest\": }", "s.json:2: not JSON: invalid character '}'"},
	} {
		path := filepath.Join(dir, "s.json")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Go ") {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}
