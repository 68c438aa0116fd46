package shard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzReadPlan: any bytes as a study's plan.json are refused as input — never a panic —
// or give a plan whose spec is valid; ReadStatus of the directory then agrees with it.
func FuzzReadPlan(f *testing.F) {
	p, err := NewPlan("toy", []string{"a", "--b", "1"}, 7, Spec{Items: 10, N: 3}, "v1")
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := WritePlan(dir, p); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"format":"x"}`))
	work := f.TempDir() // one directory per fuzzing process, rewritten by each input
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := work
		if err := os.WriteFile(filepath.Join(dir, "plan.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pl, err := ReadPlan(dir)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrTooLarge) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		if err := pl.Spec.Validate(); err != nil {
			t.Fatalf("accepted an invalid spec: %v", err)
		}
		st, err := ReadStatus(dir)
		if err != nil || len(st.Missing) != pl.N {
			t.Fatalf("status of a fresh plan: %+v, %v", st, err)
		}
	})
}
