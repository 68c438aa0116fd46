package sim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestParseDistForms: the accepted spellings and their parameters' bounds (ParseDist's doc:
// no parameter for exponential/deterministic/uniform; gamma shape MinGammaShape …
// MaxGammaShape; lognormal and hyperexp SCV ≤ MaxSCV; pareto α > 1). The SCVs are the closed
// forms of each distribution (gamma 1/k, Erlang 1/K, pareto 1/(α(α−2))).
func TestParseDistForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		scv  float64 // accepted with this SCV; NaN: refused
		want string  // fragment of the refusal
	}{
		{"exponential", 1, ""},
		{"", 1, ""},
		{"deterministic", 0, ""},
		{"uniform", 1.0 / 3, ""},
		{"erlang:4", 0.25, ""},
		{"gamma:0.01", 100, ""},
		{"gamma:1e6", 1e-6, ""},
		{"lognormal:1e4", 1e4, ""},
		{"hyperexp:1e4", 1e4, ""},
		{"pareto:3", 1.0 / 3, ""},
		{"pareto:1.5", math.Inf(1), ""},
		// hostile review item 2: a parameter that means nothing
		{"deterministic:abc", math.NaN(), "deterministic takes no parameter (allowed: exponential"},
		{"deterministic:2", math.NaN(), "deterministic takes no parameter"},
		{"uniform:3", math.NaN(), "uniform takes no parameter"},
		{"exponential:", math.NaN(), "exponential takes no parameter"},
		// hostile review item 1b: parameters whose samples collapse to 0 or overflow
		{"gamma:1e-6", math.NaN(), "gamma needs a shape from 0.01 to 1e+06"},
		{"gamma:1e-300", math.NaN(), "gamma needs a shape from 0.01"},
		{"gamma:0.001", math.NaN(), "gamma needs a shape from 0.01"},
		{"gamma:1e7", math.NaN(), "gamma needs a shape from 0.01"},
		{"lognormal:1e300", math.NaN(), "lognormal needs an SCV with 0 < SCV ≤ 10000"},
		{"hyperexp:1e5", math.NaN(), "hyperexp needs an SCV with 1 < SCV ≤ 10000"},
		{"pareto:1", math.NaN(), "pareto needs a shape α > 1"},
		{"weibull:2", math.NaN(), "unknown distribution"},
	} {
		d, err := ParseDist(tc.in)
		switch {
		case math.IsNaN(tc.scv):
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: %v %v, want an error containing %q", tc.in, d, err, tc.want)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case math.Abs(d.SCV()-tc.scv) > 1e-12*tc.scv && d.SCV() != tc.scv:
			t.Errorf("%q: SCV %g, want %g", tc.in, d.SCV(), tc.scv)
		}
	}
}

// TestParseDistBoundsSample: at the bounds the samples stay finite and ≥ 0 and their mean
// is the requested one (within 5 standard errors, √(SCV/n); gamma:0.01's u^(1/k) underflows
// to 0 for u < 8.5e-4, which is allowed: a gap of 0).
func TestParseDistBoundsSample(t *testing.T) {
	for _, s := range []string{"gamma:0.01", "gamma:1e6", "lognormal:100", "hyperexp:100"} {
		d, err := ParseDist(s)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		const n = 200000
		sum := 0.0
		for i := 0; i < n; i++ {
			x := d.Sample(r, 2)
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("%s: sample %g", s, x)
			}
			sum += x
		}
		if m, se := sum/n, 2*math.Sqrt(d.SCV()/n); math.Abs(m-2) > 5*se {
			t.Errorf("%s: mean %g, want 2 ± %g", s, m, 5*se)
		}
	}
}

// FuzzParseDist: any string is refused or gives a distribution with a non-negative SCV whose
// samples are finite and ≥ 0.
func FuzzParseDist(f *testing.F) {
	for _, s := range []string{"exponential", "gamma:0.5", "deterministic:2", "lognormal:1e300", "pareto:1.0000001", "empirical:1;2;3", "erlang:1000", "hyperexp:1e4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDist(s)
		if err != nil {
			return
		}
		if !(d.SCV() >= 0) {
			t.Fatalf("%q: SCV %g", s, d.SCV())
		}
		r := rand.New(rand.NewPCG(3, 4))
		for i := 0; i < 100; i++ {
			if x := d.Sample(r, 1); !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("%q: sample %g", s, x)
			}
		}
	})
}
