package queue

import (
	"math"
	"strconv"
	"strings"
)

// Kind names a single-queue model.
type Kind int

// The models Solve knows.
const (
	KindMM1 Kind = iota + 1
	KindMMm
	KindMMInf
	KindMM1K
	KindMMmK
	KindMG1
	KindErlangB // M/M/m/m, the loss system
	KindErlangC // M/M/m, the delay system
	KindMMmHetero
)

// ModelNames lists the names ParseModelName accepts, for help texts.
const ModelNames = "M/M/1, M/M/m, M/M/inf, M/M/1/K, M/M/m/K, M/G/1, erlangb, erlangc, hetero " +
	"(lower case and without slashes too: mm1, mmm, mminf, mm1k, mmmk, mg1; a number in place of m or K fixes it: M/M/4/20)"

// Spec is a single-queue model with its parameters, as the command line gives it. Servers
// and Capacity 0 mean "not given".
type Spec struct {
	Kind        Kind
	Lambda      float64   // λ, jobs/s
	Mu          float64   // μ, jobs/s per server
	Servers     int       // m
	Capacity    int       // K
	SCV         float64   // service-time c² (M/G/1)
	Mus         []float64 // heterogeneous servers' rates
	Percentiles []float64 // fractions in (0, 1)
}

// ParseModelName reads a model name in Kendall notation or a short name (see ModelNames).
// Where the name has a number in place of m or K, it is returned (else 0).
func ParseModelName(name string) (kind Kind, servers, capacity int, err error) {
	s := strings.ToLower(strings.TrimSpace(name))
	switch s {
	case "erlangb", "erlang-b", "erlang_b":
		return KindErlangB, 0, 0, nil
	case "erlangc", "erlang-c", "erlang_c":
		return KindErlangC, 0, 0, nil
	case "hetero", "heterogeneous", "mmm-het", "m/m/m-het", "qsammm":
		return KindMMmHetero, 0, 0, nil
	case "mg1", "m/g/1":
		return KindMG1, 1, 0, nil
	case "mminf", "m/m/inf", "m/m/∞", "m/m/infinity":
		return KindMMInf, 0, 0, nil
	case "mm1":
		return KindMM1, 1, 0, nil
	case "mmm":
		return KindMMm, 0, 0, nil
	case "mm1k":
		return KindMM1K, 1, 0, nil
	case "mmmk":
		return KindMMmK, 0, 0, nil
	}
	bad := func() (Kind, int, int, error) {
		return 0, 0, 0, badf("queue model %q: unknown (allowed: %s)", name, ModelNames)
	}
	parts := strings.Split(s, "/")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != "m" || parts[1] != "m" {
		return bad()
	}
	num := func(p, letter string) (int, error) {
		if p == letter {
			return 0, nil
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 1 || v > MaxStates {
			return 0, badf("queue model %q: %q must be %s or a whole number from 1 to %d", name, p, letter, MaxStates)
		}
		return v, nil
	}
	if servers, err = num(parts[2], "m"); err != nil {
		return 0, 0, 0, err
	}
	if len(parts) == 3 {
		if servers == 1 {
			return KindMM1, 1, 0, nil
		}
		return KindMMm, servers, 0, nil
	}
	if capacity, err = num(parts[3], "k"); err != nil {
		return 0, 0, 0, err
	}
	if servers == 1 {
		return KindMM1K, 1, capacity, nil
	}
	return KindMMmK, servers, capacity, nil
}

// ParseFloats reads a comma-separated list of finite numbers (flag values such as
// --mus 10,15,20 or --percentiles 50,90,99), naming flag in errors.
func ParseFloats(flag, s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	fields := strings.Split(s, ",")
	if len(fields) > MaxStates {
		return nil, badf("--%s: %d values, more than %d", flag, len(fields), MaxStates)
	}
	out := make([]float64, 0, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, badf("--%s: value %d %q is not a finite number", flag, i+1, strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	return out, nil
}

// Solve checks s and solves it, adding the percentiles it asks for where they exist.
func Solve(s Spec) (*Result, error) {
	var r *Result
	var err error
	need := func(what string, ok bool) error {
		if !ok {
			return badf("%s", what)
		}
		return nil
	}
	switch s.Kind {
	case KindMM1:
		r, err = MM1(s.Lambda, s.Mu)
	case KindMMm, KindErlangC:
		if err = need("M/M/m needs the number of servers m ≥ 1 (--servers)", s.Servers >= 1); err == nil {
			r, err = MMm(s.Lambda, s.Mu, s.Servers)
		}
		if err == nil && s.Kind == KindErlangC {
			r.Method = "Erlang C: " + r.Method
		}
	case KindMMInf:
		r, err = MMInf(s.Lambda, s.Mu)
	case KindMM1K:
		if err = need("M/M/1/K needs the capacity K ≥ 1 (--capacity)", s.Capacity >= 1); err == nil {
			r, err = MM1K(s.Lambda, s.Mu, s.Capacity)
		}
	case KindMMmK:
		if err = need("M/M/m/K needs the number of servers m ≥ 1 (--servers) and the capacity K ≥ m (--capacity)", s.Servers >= 1 && s.Capacity >= 1); err == nil {
			r, err = MMmK(s.Lambda, s.Mu, s.Servers, s.Capacity)
		}
	case KindErlangB:
		if err = need("Erlang B needs the number of servers m ≥ 1 (--servers)", s.Servers >= 1); err == nil {
			r, err = MMmK(s.Lambda, s.Mu, s.Servers, s.Servers)
		}
	case KindMG1:
		r, err = MG1(s.Lambda, s.Mu, s.SCV)
	case KindMMmHetero:
		r, err = MMmHetero(s.Lambda, s.Mus)
	default:
		return nil, badf("queue model kind %d unknown", int(s.Kind))
	}
	if err != nil {
		return nil, err
	}
	if err := AddPercentiles(r, s.Percentiles); err != nil {
		return nil, err
	}
	if r.Notes == nil {
		r.Notes = []string{} // the output contract: notes is always an array
	}
	return r, nil
}
