package qn

// The sequential lattice walk of MVAMulti, restructured for speed (issue 20).
//
// Rows: the populations that differ only in the last class, n_{C−1} = 0 … N_{C−1}, lie
// next to each other in a slice, and the active classes among 0 … C−2 and their
// neighbours' offsets are the same for the whole row, so they are set up once per row; the
// last class's neighbour Q(n − e_{C−1}) is the row's previous point.
//
// Skew: along a row every point depends on the previous one, a chain of adds, a division
// and multiplies (≈ 40 cycles). solveRows therefore walks rowGroup rows at once in skewed
// order — at step t row g computes its point t − g — so that consecutive points in program
// order are independent and the CPU overlaps their chains. Every point needs only the
// previous point of its row and points of earlier rows at the same position (the class
// strides are multiples of the row length), all computed at earlier steps.
//
// K_q = 4 queue stations (the thesis network) has an unrolled step (step4) with each
// class's constants in fixed-size arrays. The arithmetic is (*multi).kernel's in the same
// order (classes 0 … C−1, stations in order), so results are bit-identical to the generic
// point-by-point walk (TestRowsIdentical).
//
// rowWalker.slice walks any range of a slice's rows, so the parallel forms run this same
// code: MVAMultiSplit (rowsplit.go) gives each worker a range of rows of every slice,
// MVAMultiInterleaved (rowsparallel.go) whole slices in turn.

// rowPlan holds one row's active classes (among 0 … C−2) and their neighbour offsets.
type rowPlan struct {
	cls []int       // active classes, in order
	nc  []float64   // their populations
	src [][]float64 // neighbour slice of each active class (prev for class 0, else cur)
	off []int       // offset (in floats) of the neighbour of the row's first point
	out []float64   // the row's queue lengths, rowLen·K_q floats
	tmp []float64   // K_q floats of scratch
}

// rowGroup is how many rows solveRows interleaves.
const rowGroup = 4

// rowWalker holds one worker's state for the row walk.
type rowWalker struct {
	p         *multi
	n         []int
	dqf, cdqf []float64 // demands (count × demands) at queue stations, class-major
	pls       [rowGroup]rowPlan
	r4        [rowGroup]row4
	c4        []cls4 // per-class constants for K_q = 4
	rowLen    int
	rows      int // rows per slice
}

func (p *multi) newRowWalker() *rowWalker {
	C, Kq := len(p.N), p.Kq
	w := &rowWalker{p: p, n: make([]int, C), rowLen: p.N[C-1] + 1}
	w.rows = p.slice / w.rowLen
	w.dqf = make([]float64, C*Kq)
	w.cdqf = make([]float64, C*Kq)
	for ci := range C {
		copy(w.dqf[ci*Kq:], p.dq[ci])
		copy(w.cdqf[ci*Kq:], p.cdq[ci])
	}
	for g := range w.pls {
		w.pls[g] = rowPlan{cls: make([]int, 0, C), nc: make([]float64, 0, C), src: make([][]float64, 0, C), off: make([]int, 0, C), tmp: make([]float64, Kq)}
	}
	if Kq == 4 {
		for g := range w.r4 {
			w.r4[g].k = make([]cls4, 0, C)
		}
		for ci := range C {
			var k cls4
			copy(k.d[:], p.dq[ci])
			copy(k.c[:], p.cdq[ci])
			k.z = p.zeff[ci]
			w.c4 = append(w.c4, k)
		}
	}
	return w
}

// slice computes the rows [from, to) of the slice n₀ of the class with the largest
// population into cur, from the slice n₀ − 1 in prev (prev may be cur: every point reads its
// own position of prev before writing it, and nothing else reads that position). Row r holds
// the points whose classes 1 … C−2 have the odometer value r (class C−2 fastest); it reads
// rows r − strides[c]/rowLen of cur, which must hold slice n₀ already. before(r0, G) is
// called before each group of G rows starting at row r0, after(r) once the rows up to r are
// done.
func (w *rowWalker) slice(n0 int, prev, cur []float64, from, to int, before func(r0, G int), after func(r int)) {
	p := w.p
	C, Kq := len(p.N), p.Kq
	n, rowLen := w.n, w.rowLen
	n[0] = n0
	n[C-1] = 0
	for ci, r := C-2, from; ci >= 1; ci-- { // the odometer at row from
		n[ci] = r % (p.N[ci] + 1)
		r /= p.N[ci] + 1
	}
	for r0 := from; r0 < to; r0 += rowGroup {
		G := min(rowGroup, to-r0)
		if before != nil {
			before(r0, G)
		}
		for g := 0; g < G; g++ {
			base := (r0 + g) * rowLen
			pl := &w.pls[g]
			pl.cls, pl.nc, pl.src, pl.off = pl.cls[:0], pl.nc[:0], pl.src[:0], pl.off[:0]
			pl.out = cur[base*Kq : (base+rowLen)*Kq]
			for ci := 0; ci < C-1; ci++ {
				if n[ci] == 0 {
					continue
				}
				pl.cls = append(pl.cls, ci)
				pl.nc = append(pl.nc, float64(n[ci]))
				if ci == 0 {
					pl.src = append(pl.src, prev)
					pl.off = append(pl.off, base*Kq)
				} else {
					pl.src = append(pl.src, cur)
					pl.off = append(pl.off, (base-p.strides[ci])*Kq)
				}
			}
			for ci := C - 2; ci >= 1; ci-- { // odometer over classes 1 … C−2
				n[ci]++
				if n[ci] <= p.N[ci] {
					break
				}
				n[ci] = 0
			}
		}
		// Skewed order: at step t row g computes its point t − g (see the file comment).
		if Kq == 4 {
			for g := 0; g < G; g++ {
				pl, r := &w.pls[g], &w.r4[g]
				r.out, r.k = pl.out, r.k[:0]
				for a, ci := range pl.cls {
					r.k = append(r.k, cls4{d: w.c4[ci].d, c: w.c4[ci].c, z: w.c4[ci].z, nc: pl.nc[a], nb: pl.src[a][pl.off[a]:]})
				}
			}
			for t := 0; t < rowLen+G-1; t++ {
				step4(w.r4[:G], &w.c4[C-1], t, rowLen)
			}
		} else {
			for t := 0; t < rowLen+G-1; t++ {
				for g := max(0, t-rowLen+1); g < min(G, t+1); g++ {
					p.point(&w.pls[g], t-g, w.dqf, w.cdqf)
				}
			}
		}
		if after != nil {
			after(r0 + G)
		}
	}
}

// finalPoint recomputes the point N with the shared kernel to get its residence times and
// throughputs (same arithmetic as the walk, so the same queue lengths): nb0 holds Q at
// N − e₀ (nil if N₀ = 0), last the last slice. Returns the Result.
func (p *multi) finalPoint(nb0, last []float64, points int) *Result {
	C, Kq := len(p.N), p.Kq
	nbs := make([][]float64, C)
	at := (p.slice - 1) * Kq
	nbs[0] = nb0
	for ci := 1; ci < C; ci++ {
		if p.N[ci] > 0 {
			j := at - p.strides[ci]*Kq
			nbs[ci] = last[j : j+Kq]
		}
	}
	rk := make([]float64, Kq*C)
	x := make([]float64, C)
	q := make([]float64, Kq)
	p.kernel(p.N, nbs, q, rk, x)
	return p.result(x, rk, last[at:at+Kq], points)
}

// solveRows walks the lattice row by row; it needs C ≥ 2 closed classes and K_q ≥ 1 queue
// stations (MVAMulti falls back to the generic walk otherwise).
func (p *multi) solveRows() *Result {
	Kq := p.Kq
	prev := make([]float64, p.slice*Kq)
	cur := make([]float64, p.slice*Kq)
	w := p.newRowWalker()
	for n0 := 0; n0 <= p.N[0]; n0++ {
		w.slice(n0, prev, cur, 0, w.rows, nil, nil)
		prev, cur = cur, prev
	}
	var nb0 []float64
	if p.N[0] > 0 {
		at := (p.slice - 1) * Kq
		nb0 = cur[at : at+Kq]
	}
	return p.finalPoint(nb0, prev, (p.N[0]+1)*p.slice)
}

// point computes the queue lengths at point i of a row (any K_q).
func (p *multi) point(pl *rowPlan, i int, dqf, cdqf []float64) {
	Kq := p.Kq
	last := len(p.N) - 1
	out := pl.out
	// accumulate in scratch: the class-0 neighbour may be this very position (in place)
	q := pl.tmp[:Kq:Kq]
	for j := range q {
		q[j] = 0
	}
	for a, ci := range pl.cls {
		o := pl.off[a] + i*Kq
		nb := pl.src[a][o : o+Kq : o+Kq]
		dq := dqf[ci*Kq : (ci+1)*Kq : (ci+1)*Kq]
		cdq := cdqf[ci*Kq : (ci+1)*Kq : (ci+1)*Kq]
		tot := p.zeff[ci]
		for j := range nb {
			tot += cdq[j] * (1 + nb[j])
		}
		xc := pl.nc[a] / tot
		for j := range q {
			q[j] += xc * (dq[j] * (1 + nb[j]))
		}
	}
	if i > 0 {
		nb := out[(i-1)*Kq : i*Kq : i*Kq]
		dq := dqf[last*Kq : (last+1)*Kq : (last+1)*Kq]
		cdq := cdqf[last*Kq : (last+1)*Kq : (last+1)*Kq]
		tot := p.zeff[last]
		for j := range nb {
			tot += cdq[j] * (1 + nb[j])
		}
		xc := float64(i) / tot
		for j := range q {
			q[j] += xc * (dq[j] * (1 + nb[j]))
		}
	}
	copy(out[i*Kq:(i+1)*Kq], q)
}

// cls4 is one class's constants and neighbour queue lengths in a row, for K_q = 4.
type cls4 struct {
	d, c  [4]float64 // demand and count × demand at the queue stations
	z, nc float64    // Z_c + delay demands; population
	nb    []float64  // queue lengths at n − e_c for the row's points, 4 per point
}

// row4 is one row for K_q = 4: its active classes among 0 … C−2 and its output.
type row4 struct {
	k   []cls4
	out []float64
}

// step4 computes step t of the skewed walk over the rows rs for K_q = 4: point t − g of row
// g, unrolled over the stations. last holds the last class's constants (its neighbour is
// the row's previous point).
func step4(rs []row4, last *cls4, t, rowLen int) {
	for g := max(0, t-rowLen+1); g < min(len(rs), t+1); g++ {
		i := t - g
		r := &rs[g]
		var q0, q1, q2, q3 float64
		for a := range r.k {
			k := &r.k[a]
			nb := k.nb[i*4 : i*4+4 : i*4+4]
			a0, a1, a2, a3 := 1+nb[0], 1+nb[1], 1+nb[2], 1+nb[3]
			tot := k.z + k.c[0]*a0
			tot += k.c[1] * a1
			tot += k.c[2] * a2
			tot += k.c[3] * a3
			xc := k.nc / tot
			q0 += xc * (k.d[0] * a0)
			q1 += xc * (k.d[1] * a1)
			q2 += xc * (k.d[2] * a2)
			q3 += xc * (k.d[3] * a3)
		}
		out := r.out
		if i > 0 {
			nb := out[i*4-4 : i*4 : i*4]
			a0, a1, a2, a3 := 1+nb[0], 1+nb[1], 1+nb[2], 1+nb[3]
			tot := last.z + last.c[0]*a0
			tot += last.c[1] * a1
			tot += last.c[2] * a2
			tot += last.c[3] * a3
			xc := float64(i) / tot
			q0 += xc * (last.d[0] * a0)
			q1 += xc * (last.d[1] * a1)
			q2 += xc * (last.d[2] * a2)
			q3 += xc * (last.d[3] * a3)
		}
		o := out[i*4 : i*4+4 : i*4+4]
		o[0], o[1], o[2], o[3] = q0, q1, q2, q3
	}
}
