package scaling

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fit"
)

// exponent is a rational exponent of the Extra-P normal form with its printed form.
type exponent struct {
	v    float64
	text string
}

// growthExponents is Extra-P's usual exponent set I (Calotoiu et al., SC'13).
var growthExponents = []exponent{
	{0, "0"}, {0.25, "1/4"}, {1.0 / 3, "1/3"}, {0.5, "1/2"}, {2.0 / 3, "2/3"}, {0.75, "3/4"},
	{1, "1"}, {1.25, "5/4"}, {4.0 / 3, "4/3"}, {1.5, "3/2"}, {5.0 / 3, "5/3"}, {1.75, "7/4"}, {2, "2"},
}

// decayExponents are the negative exponents of a strong-scaling computation term.
var decayExponents = []exponent{
	{-0.5, "-1/2"}, {-2.0 / 3, "-2/3"}, {-0.75, "-3/4"}, {-1, "-1"}, {-1.25, "-5/4"}, {-4.0 / 3, "-4/3"}, {-1.5, "-3/2"},
}

// Term is one basis function p^I·log₂(p)^J of the Extra-P normal form.
type Term struct {
	I     float64 `json:"i"`
	IText string  `json:"i_text"`
	J     int     `json:"j"`
}

func (t Term) eval(p float64) float64 {
	v := math.Pow(p, t.I)
	if t.J > 0 {
		v *= math.Pow(math.Log2(p), float64(t.J))
	}
	return v
}

func (t Term) String() string {
	var b strings.Builder
	switch t.IText {
	case "0":
	case "1":
		b.WriteString("p")
	default:
		fmt.Fprintf(&b, "p^(%s)", t.IText)
	}
	if t.J > 0 {
		if b.Len() > 0 {
			b.WriteString("·")
		}
		b.WriteString("log2(p)")
		if t.J > 1 {
			fmt.Fprintf(&b, "^%d", t.J)
		}
	}
	return b.String()
}

// kind of candidate model.
type kind int

const (
	kindLinear kind = iota // c₀ + Σ cₖ·termₖ, cₖ ≥ 0
	kindUSL                // T₁(1 + σ(p−1) + κp(p−1))/p
)

// candidate is one model of the family.
type candidate struct {
	name  string // amdahl, usl, gustafson, constant, extrap
	kind  kind
	terms []Term // linear: the terms after c₀
	order int    // position in candidates' list: the last tie-break (see ruleBefore)
}

func (c *candidate) nParams() int {
	if c.kind == kindUSL {
		return 3
	}
	return 1 + len(c.terms)
}

func (c *candidate) formula() string {
	switch c.kind {
	case kindUSL:
		return "T1·(1 + σ(p−1) + κ·p(p−1))/p"
	}
	s := "c0"
	for k, t := range c.terms {
		s += fmt.Sprintf(" + c%d·%s", k+1, t)
	}
	return s
}

// candidates returns the model family for strong or weak scaling, numbered in list order
// (candidate.order): for strong scaling USL, then the one-term forms from the mildest decay
// (p^(-1/2), p^(-1/2)·log2(p), p^(-2/3), …; Amdahl is p^(-1)), then the two-term forms; for
// weak scaling the constant, then the one-term forms from the slowest growth (log2(p),
// log2(p)^2, p^(1/4), …; Gustafson is p), then the two-term forms.
func candidates(scaling string) []*candidate {
	out := candidateList(scaling)
	for i, c := range out {
		c.order = i
	}
	return out
}

func candidateList(scaling string) []*candidate {
	var growth []Term
	for _, e := range growthExponents {
		for j := 0; j <= 2; j++ {
			if e.v == 0 && j == 0 {
				continue
			}
			growth = append(growth, Term{I: e.v, IText: e.text, J: j})
		}
	}
	var out []*candidate
	if scaling == "weak" {
		out = append(out, &candidate{name: "constant", kind: kindLinear})
		for _, g := range growth {
			name := "extrap"
			if g.I == 1 && g.J == 0 {
				name = "gustafson"
			}
			out = append(out, &candidate{name: name, kind: kindLinear, terms: []Term{g}})
		}
		for a := 0; a < len(growth); a++ {
			for b := a + 1; b < len(growth); b++ {
				out = append(out, &candidate{name: "extrap", kind: kindLinear, terms: []Term{growth[a], growth[b]}})
			}
		}
		return out
	}
	var decay []Term
	for _, e := range decayExponents {
		for j := 0; j <= 1; j++ {
			decay = append(decay, Term{I: e.v, IText: e.text, J: j})
		}
	}
	out = append(out, &candidate{name: "usl", kind: kindUSL})
	for _, d := range decay {
		name := "extrap"
		if d.I == -1 && d.J == 0 {
			name = "amdahl"
		}
		out = append(out, &candidate{name: name, kind: kindLinear, terms: []Term{d}})
	}
	for _, d := range decay {
		for _, g := range growth {
			out = append(out, &candidate{name: "extrap", kind: kindLinear, terms: []Term{d, g}})
		}
	}
	return out
}

// amdahlCandidate and uslCandidate are the baselines the issue compares against.
var (
	amdahlCandidate = &candidate{name: "amdahl", kind: kindLinear, terms: []Term{{I: -1, IText: "-1"}}}
	uslCandidate    = &candidate{name: "usl", kind: kindUSL}
)

// fitted is a candidate fitted to points.
type fitted struct {
	c      *candidate
	x      []float64   // linear: c₀, c₁, …; USL: T₁, σ, κ — times in units of scale
	free   []bool      // parameters not held at a bound
	cov    [][]float64 // covariance of x (zero rows/columns for fixed parameters), scale units
	scale  float64     // seconds per time unit of x (0 while fitting: 1; see Fit)
	s2     float64     // relative residual variance SSR/(n − k_free), NaN when dof = 0
	ssr    float64
	n, dof int
}

// value is the model's time at p in seconds.
func (f *fitted) value(p float64) float64 {
	return f.unit() * f.scaled(p)
}

// unit is f.scale, or 1 while the fit is in progress (scale not yet set).
func (f *fitted) unit() float64 {
	if f.scale > 0 {
		return f.scale
	}
	return 1
}

// scaled is the model's time at p in units of f.scale.
func (f *fitted) scaled(p float64) float64 {
	if f.c.kind == kindUSL {
		t1, s, k := f.x[0], f.x[1], f.x[2]
		return t1 * (1 + s*(p-1) + k*p*(p-1)) / p
	}
	v := f.x[0]
	for k, t := range f.c.terms {
		v += f.x[k+1] * t.eval(p)
	}
	return v
}

// timeParam reports whether parameter k of f carries time units (every linear coefficient,
// and USL's T₁; σ and κ are pure numbers).
func (f *fitted) timeParam(k int) bool {
	return f.c.kind != kindUSL || k == 0
}

// grad is ∂T/∂x at p.
func (f *fitted) grad(p float64) []float64 {
	if f.c.kind == kindUSL {
		t1, s, k := f.x[0], f.x[1], f.x[2]
		return []float64{(1 + s*(p-1) + k*p*(p-1)) / p, t1 * (p - 1) / p, t1 * (p - 1)}
	}
	g := []float64{1}
	for _, t := range f.c.terms {
		g = append(g, t.eval(p))
	}
	return g
}

// relSE is the parameters' standard error of the prediction at p relative to the prediction
// (NaN when the covariance is unknown).
func (f *fitted) relSE(p float64) float64 {
	if f.cov == nil {
		return math.NaN()
	}
	g := f.grad(p)
	v := 0.0
	for a := range g {
		for b := range g {
			v += g[a] * f.cov[a][b] * g[b]
		}
	}
	if v < 0 || math.IsNaN(v) {
		return math.NaN()
	}
	return math.Sqrt(v) / f.scaled(p)
}

// fitCandidate fits c to pts by relative least squares. It returns nil when the points
// cannot determine the model (fewer points than parameters, or no finite solution).
func fitCandidate(c *candidate, pts []Point) *fitted {
	g := groupPoints(pts)
	if len(pts) < c.nParams() {
		return nil
	}
	if c.kind == kindUSL {
		return fitUSL(g, nil)
	}
	return fitLinear(c, basis(c, g), g, nil, true)
}

// group is the sufficient statistic of the runs at one p for relative least squares:
// Σᵢ((m − yᵢ)/yᵢ)² = m²·A − 2m·B + n with A = Σ 1/yᵢ², B = Σ 1/yᵢ, which is
// W·(m/Y − 1)² + (n − W) with Y = B/A (the runs' relative-LS centre) and W = B²/A. So the
// fit over N runs is a weighted fit over the distinct p, exactly, in O(distinct p) per fit
// (review: 99 999 rows did not finish in 400 s when every fold refitted every row).
type group struct {
	P    int
	Y, W float64 // centre B/A and weight B²/A
	N    int     // runs
	C    float64 // N − W ≥ 0: the replicates' own relative scatter about Y
}

// groupPoints collects pts by p, sorted by p. C is summed as Σ(1 − Y/yᵢ)² in a second
// pass (equal to N − W, but without its cancellation: identical replicates give C = 0
// exactly, so an exact fit stays exact).
func groupPoints(pts []Point) []group {
	type acc struct {
		a, b, c float64
		n       int
	}
	m := map[int]*acc{}
	for _, pt := range pts {
		x := m[pt.P]
		if x == nil {
			x = &acc{}
			m[pt.P] = x
		}
		x.a += 1 / (pt.TimeS * pt.TimeS)
		x.b += 1 / pt.TimeS
		x.n++
	}
	for _, pt := range pts {
		x := m[pt.P]
		if x.n > 1 {
			r := 1 - x.b/x.a/pt.TimeS
			x.c += r * r
		}
	}
	g := make([]group, 0, len(m))
	for p, x := range m {
		w := x.b * x.b / x.a
		if x.n == 1 {
			w = 1
		}
		g = append(g, group{P: p, Y: x.b / x.a, W: w, N: x.n, C: x.c})
	}
	sort.Slice(g, func(a, b int) bool { return g[a].P < g[b].P })
	return g
}

// basis evaluates c's columns (1, term₁, term₂ …) at every group's p, once for all folds.
func basis(c *candidate, g []group) [][]float64 {
	B := make([][]float64, 1+len(c.terms))
	for k := range B {
		B[k] = make([]float64, len(g))
		for i, gr := range g {
			if k == 0 {
				B[k][i] = 1
			} else {
				B[k][i] = c.terms[k-1].eval(float64(gr.P))
			}
		}
	}
	return B
}

// fitLinear minimises Σ((Σₖ xₖ·bₖ(pᵢ) − yᵢ)/yᵢ)² over the runs of the groups rows (all when
// rows is nil) over x ≥ 0 exactly, as the weighted problem Σ_g W_g(x·b(p_g)/Y_g − 1)² (see
// group), B the basis of g: the optimum of a non-negative least-squares problem is the
// unconstrained optimum on its support, so every support (at most 2³ − 1 for three
// columns) is solved and the best feasible one kept. withCov adds the covariance.
func fitLinear(c *candidate, B [][]float64, g []group, rows []int, withCov bool) *fitted {
	m := 1 + len(c.terms)
	if rows == nil {
		rows = make([]int, len(g))
		for i := range rows {
			rows[i] = i
		}
	}
	n := len(rows)
	if n < 1 {
		return nil
	}
	cols := make([][]float64, m) // sqrt(W)·b_k(p)/Y
	buf := make([]float64, m*n)
	t := make([]float64, n) // sqrt(W)
	nRuns, cRuns := 0, 0.0
	for a, i := range rows {
		t[a] = math.Sqrt(g[i].W)
		nRuns += g[i].N
		cRuns += g[i].C
	}
	for k := 0; k < m; k++ {
		cols[k] = buf[k*n : (k+1)*n]
		for a, i := range rows {
			cols[k][a] = B[k][i] / g[i].Y * t[a]
		}
	}
	best, bestSupport, bestCost := bestSupport(cols, t, m, n, nRuns)
	if best == nil {
		return nil
	}
	f := &fitted{c: c, x: make([]float64, m), free: make([]bool, m), ssr: bestCost + cRuns, n: nRuns}
	for a, k := range bestSupport {
		f.x[k] = best[a]
		f.free[k] = best[a] > 0
	}
	var idx []int
	for k := 0; k < m; k++ {
		if f.free[k] {
			idx = append(idx, k)
		}
	}
	f.dof = nRuns - len(idx)
	f.s2 = math.NaN()
	if f.dof > 0 {
		f.s2 = f.ssr / float64(f.dof)
		if withCov {
			if inv, ok := invNormal(cols, idx, n); ok {
				f.cov = make([][]float64, m)
				for k := range f.cov {
					f.cov[k] = make([]float64, m)
				}
				for a, ka := range idx {
					for b, kb := range idx {
						f.cov[ka][kb] = f.s2 * inv[a][b]
					}
				}
			}
		}
	}
	if !finiteAll(f.x) || !(f.value(float64(g[rows[0]].P)) > 0) {
		return nil
	}
	return f
}

// bestSupport solves min ‖A·x − t‖ over x ≥ 0 for the m columns of A by trying every
// support of at most min(m, runs) columns; it returns the solution on its support, the
// support and the cost (nil when none is feasible).
func bestSupport(cols [][]float64, t []float64, m, n, runs int) ([]float64, []int, float64) {
	bestCost := math.Inf(1)
	var best []float64
	var bestSup, sup []int
	for mask := 1; mask < 1<<m; mask++ {
		sup = sup[:0]
		for k := 0; k < m; k++ {
			if mask&(1<<k) != 0 {
				sup = append(sup, k)
			}
		}
		if len(sup) > n {
			continue
		}
		x, ok := lsTarget(cols, t, sup, n)
		if !ok {
			continue
		}
		feasible := true
		for _, v := range x {
			if v < 0 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		cost := 0.0
		for i := 0; i < n; i++ {
			r := -t[i]
			for a, k := range sup {
				r += x[a] * cols[k][i]
			}
			cost += r * r
		}
		if best == nil || cost < bestCost-1e-15*(1+bestCost) || (cost <= bestCost*(1+1e-12) && len(sup) < len(bestSup)) {
			bestCost, best, bestSup = cost, x, append([]int(nil), sup...)
		}
	}
	return best, bestSup, bestCost
}

// lsTarget solves min ‖A·x − t‖ for the columns sup of A by the normal equations with unit
// column scaling and partially pivoted elimination; ok is false when the columns are
// (numerically) dependent.
func lsTarget(cols [][]float64, t []float64, sup []int, n int) ([]float64, bool) {
	k := len(sup)
	scale := make([]float64, k)
	for a, c := range sup {
		s := 0.0
		for i := 0; i < n; i++ {
			s += cols[c][i] * cols[c][i]
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, false
		}
		scale[a] = 1 / math.Sqrt(s)
	}
	A := make([][]float64, k)
	for a := range A {
		A[a] = make([]float64, k+1)
		for b := 0; b < k; b++ {
			s := 0.0
			for i := 0; i < n; i++ {
				s += cols[sup[a]][i] * cols[sup[b]][i]
			}
			A[a][b] = s * scale[a] * scale[b]
		}
		s := 0.0
		for i := 0; i < n; i++ {
			s += cols[sup[a]][i] * t[i]
		}
		A[a][k] = s * scale[a]
	}
	x, ok := solve(A, k)
	if !ok {
		return nil, false
	}
	for a := range x {
		x[a] *= scale[a]
	}
	return x, true
}

// solve eliminates the k×(k+1) augmented system in place; pivots below 1e-10 (the system
// has unit diagonal) mean dependent columns.
func solve(A [][]float64, k int) ([]float64, bool) {
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		if math.Abs(A[p][c]) < 1e-10 {
			return nil, false
		}
		A[c], A[p] = A[p], A[c]
		for r := c + 1; r < k; r++ {
			f := A[r][c] / A[c][c]
			for j := c; j <= k; j++ {
				A[r][j] -= f * A[c][j]
			}
		}
	}
	x := make([]float64, k)
	for r := k - 1; r >= 0; r-- {
		s := A[r][k]
		for j := r + 1; j < k; j++ {
			s -= A[r][j] * x[j]
		}
		x[r] = s / A[r][r]
	}
	return x, finiteAll(x)
}

// invNormal returns (AᵀA)⁻¹ over the columns idx.
func invNormal(cols [][]float64, idx []int, n int) ([][]float64, bool) {
	k := len(idx)
	inv := make([][]float64, k)
	for a := range inv {
		inv[a] = make([]float64, k)
	}
	for e := 0; e < k; e++ {
		A := make([][]float64, k)
		scale := make([]float64, k)
		for a, c := range idx {
			s := 0.0
			for i := 0; i < n; i++ {
				s += cols[c][i] * cols[c][i]
			}
			scale[a] = 1 / math.Sqrt(s)
		}
		for a := range A {
			A[a] = make([]float64, k+1)
			for b := 0; b < k; b++ {
				s := 0.0
				for i := 0; i < n; i++ {
					s += cols[idx[a]][i] * cols[idx[b]][i]
				}
				A[a][b] = s * scale[a] * scale[b]
			}
			if a == e {
				A[a][k] = 1
			}
		}
		x, ok := solve(A, k)
		if !ok {
			return nil, false
		}
		for a := range x {
			inv[a][e] = x[a] * scale[a] * scale[e]
		}
	}
	return inv, true
}

// fitUSL fits T₁(1 + σ(p−1) + κp(p−1))/p with T₁ > 0, 0 ≤ σ ≤ 1, κ ≥ 0 by package fit's
// bounded Levenberg–Marquardt on relative residuals (per group, weighted as in group), over
// the groups rows (all when nil), started from the non-negative linear fit of the same
// function written as A/p + B(p−1)/p + C(p−1).
func fitUSL(all []group, rows []int) *fitted {
	g := all
	if rows != nil {
		g = make([]group, len(rows))
		for a, i := range rows {
			g[a] = all[i]
		}
	}
	lc := &candidate{kind: kindLinear, terms: []Term{{I: -1, IText: "-1"}, {I: 1, IText: "1"}}}
	lin := fitLinear(lc, basis(lc, g), g, nil, false)
	// T₁(1 + σ(p−1) + κp(p−1))/p = T₁(σ−κ) + T₁(1−σ)/p + T₁κ·p, so the non-negative fit
	// c₀ + c₁/p + c₂·p gives T₁ = c₀+c₁+c₂, σ = (c₀+c₂)/T₁, κ = c₂/T₁ as a start.
	x0 := []float64{g[0].Y * float64(g[0].P), 0.05, 1e-4}
	if lin != nil {
		t1 := lin.value(1)
		x0 = []float64{t1, math.Min(math.Max((lin.x[0]+lin.x[2])/t1, 1e-3), 0.99), math.Max(lin.x[2]/t1, 1e-8)}
	}
	nRuns, cRuns := 0, 0.0
	sw := make([]float64, len(g))
	for i, gr := range g {
		nRuns += gr.N
		cRuns += gr.C
		sw[i] = math.Sqrt(gr.W)
	}
	prob := fit.Problem{
		M: len(g),
		Residuals: func(x, r []float64) error {
			for i, gr := range g {
				p := float64(gr.P)
				r[i] = sw[i] * (x[0]*(1+x[1]*(p-1)+x[2]*p*(p-1))/p - gr.Y) / gr.Y
			}
			return nil
		},
		Lower: []float64{1e-300, 0, 0},
		Upper: []float64{math.Inf(1), 1, math.Inf(1)},
	}
	res, err := fit.LevenbergMarquardt(prob, x0, fit.Settings{MaxIter: 300})
	if err != nil || !finiteAll(res.X) || !(res.X[0] > 0) {
		return nil
	}
	f := &fitted{c: uslCandidate, x: append([]float64(nil), res.X...), free: make([]bool, 3), ssr: res.Cost + cRuns, n: nRuns}
	nfree := 0
	for k := range f.free {
		f.free[k] = res.AtBound == nil || !res.AtBound[k]
		if f.free[k] {
			nfree++
		}
	}
	f.dof = nRuns - nfree
	f.s2 = math.NaN()
	if f.dof > 0 {
		f.s2 = f.ssr / float64(f.dof)
		cov, s2g, _ := fit.Covariance(res, f.free)
		f.cov = make([][]float64, 3)
		for a := 0; a < 3; a++ {
			f.cov[a] = make([]float64, 3)
			for b := 0; b < 3; b++ {
				v := cov.At(a, b) * f.s2 / s2g // the covariance at the runs' noise, not the groups'
				if !f.free[a] || !f.free[b] || math.IsNaN(v) || math.IsInf(v, 0) {
					v = 0
				}
				f.cov[a][b] = v
			}
		}
	}
	return f
}

func finiteAll(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
