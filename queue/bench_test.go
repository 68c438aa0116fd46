package queue

import "testing"

func BenchmarkMMm(b *testing.B) {
	for b.Loop() {
		if _, err := MMm(90, 1, 100); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkErlangBLarge(b *testing.B) {
	for b.Loop() {
		if _, err := ErlangB(9e5, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMMmK(b *testing.B) {
	for b.Loop() {
		if _, err := MMmK(20, 1, 10, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPercentilesMMmK(b *testing.B) {
	r, err := MMmK(20, 1, 10, 100)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r.Percentiles = nil
		if err := AddPercentiles(r, []float64{0.5, 0.9, 0.99}); err != nil {
			b.Fatal(err)
		}
	}
}
