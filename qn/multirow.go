package qn

// The sequential lattice walk of MVAMulti, restructured for speed (issue 20). The points of
// one "row" — the populations that differ only in the last class, n_{C−1} = 0 … N_{C−1} —
// lie next to each other in the slice, and the active classes among 0 … C−2 and their
// neighbours' offsets are the same for the whole row. row therefore hoists them out of the
// per-point loop, reads the last class's neighbour Q(n − e_{C−1}) from the point just
// written, and keeps demands in flat class-major arrays (dqf, cdqf). The arithmetic is that
// of (*multi).kernel in the same order (classes 0 … C−1, stations in order), so results
// are bit-identical to the generic walk (TestRowsIdentical). For K_q = 4 queue stations
// (the thesis network) row4 is the same loop unrolled over stations.

// rowPlan holds one row's active classes (among 0 … C−2) and their neighbour offsets.
type rowPlan struct {
	cls []int       // active classes, in order
	nc  []float64   // their populations
	src [][]float64 // neighbour slice of each active class (prev for class 0, else cur)
	off []int       // offset (in floats) of the neighbour of the row's first point
}

// solveRows walks the lattice row by row; it needs C ≥ 2 closed classes and K_q ≥ 1 queue
// stations (solve falls back to the generic walk otherwise).
func (p *multi) solveRows() *Result {
	C, Kq := len(p.N), p.Kq
	S := p.slice
	prev := make([]float64, S*Kq)
	cur := make([]float64, S*Kq)
	n := make([]int, C)
	L := p.N[C-1]
	rowLen := L + 1
	dqf := make([]float64, C*Kq)
	cdqf := make([]float64, C*Kq)
	for ci := range C {
		copy(dqf[ci*Kq:], p.dq[ci])
		copy(cdqf[ci*Kq:], p.cdq[ci])
	}
	pl := &rowPlan{cls: make([]int, 0, C), nc: make([]float64, 0, C), src: make([][]float64, 0, C), off: make([]int, 0, C)}
	points := 0
	for n0 := 0; n0 <= p.N[0]; n0++ {
		n[0] = n0
		for i := 1; i < C; i++ {
			n[i] = 0
		}
		for base := 0; base < S; base += rowLen {
			pl.cls, pl.nc, pl.src, pl.off = pl.cls[:0], pl.nc[:0], pl.src[:0], pl.off[:0]
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
			if Kq == 4 {
				p.row4(pl, cur[base*4:(base+rowLen)*4], dqf, cdqf)
			} else {
				p.row(pl, cur[base*Kq:(base+rowLen)*Kq], dqf, cdqf)
			}
			points += rowLen
			for ci := C - 2; ci >= 1; ci-- { // odometer over classes 1 … C−2
				n[ci]++
				if n[ci] <= p.N[ci] {
					break
				}
				n[ci] = 0
			}
		}
		prev, cur = cur, prev
	}
	// prev holds the last slice. Recompute the point N with the shared kernel to get its
	// residence times and throughputs (same arithmetic, so the same queue lengths).
	nbs := make([][]float64, C)
	last := (S - 1) * Kq
	if p.N[0] > 0 {
		nbs[0] = cur[last : last+Kq]
	}
	for ci := 1; ci < C; ci++ {
		if p.N[ci] > 0 {
			j := last - p.strides[ci]*Kq
			nbs[ci] = prev[j : j+Kq]
		}
	}
	rk := make([]float64, Kq*C)
	x := make([]float64, C)
	q := make([]float64, Kq)
	p.kernel(p.N, nbs, q, rk, x)
	return p.result(x, rk, prev[last:last+Kq], points)
}

// row computes the queue lengths of one row (out: rowLen·K_q floats) for any K_q.
func (p *multi) row(pl *rowPlan, out, dqf, cdqf []float64) {
	Kq := p.Kq
	C := len(p.N)
	last := C - 1
	rowLen := len(out) / Kq
	ld := dqf[last*Kq : (last+1)*Kq : (last+1)*Kq]
	lc := cdqf[last*Kq : (last+1)*Kq : (last+1)*Kq]
	lz := p.zeff[last]
	for i := 0; i < rowLen; i++ {
		q := out[i*Kq : (i+1)*Kq : (i+1)*Kq]
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
			tot := lz
			for j := range nb {
				tot += lc[j] * (1 + nb[j])
			}
			xc := float64(i) / tot
			for j := range q {
				q[j] += xc * (ld[j] * (1 + nb[j]))
			}
		}
	}
}

// row4 is row for K_q = 4, unrolled over the stations, with the previous point's queue
// lengths kept in registers.
func (p *multi) row4(pl *rowPlan, out, dqf, cdqf []float64) {
	C := len(p.N)
	last := C - 1
	rowLen := len(out) / 4
	l := dqf[last*4 : last*4+4 : last*4+4]
	lc := cdqf[last*4 : last*4+4 : last*4+4]
	ld0, ld1, ld2, ld3 := l[0], l[1], l[2], l[3]
	lc0, lc1, lc2, lc3 := lc[0], lc[1], lc[2], lc[3]
	lz := p.zeff[last]
	var p0, p1, p2, p3 float64 // queue lengths of the previous point of the row
	for i := 0; i < rowLen; i++ {
		var q0, q1, q2, q3 float64
		for a, ci := range pl.cls {
			o := pl.off[a] + i*4
			nb := pl.src[a][o : o+4 : o+4]
			d := dqf[ci*4 : ci*4+4 : ci*4+4]
			c := cdqf[ci*4 : ci*4+4 : ci*4+4]
			a0, a1, a2, a3 := 1+nb[0], 1+nb[1], 1+nb[2], 1+nb[3]
			tot := p.zeff[ci] + c[0]*a0
			tot += c[1] * a1
			tot += c[2] * a2
			tot += c[3] * a3
			xc := pl.nc[a] / tot
			q0 += xc * (d[0] * a0)
			q1 += xc * (d[1] * a1)
			q2 += xc * (d[2] * a2)
			q3 += xc * (d[3] * a3)
		}
		if i > 0 {
			a0, a1, a2, a3 := 1+p0, 1+p1, 1+p2, 1+p3
			tot := lz + lc0*a0
			tot += lc1 * a1
			tot += lc2 * a2
			tot += lc3 * a3
			xc := float64(i) / tot
			q0 += xc * (ld0 * a0)
			q1 += xc * (ld1 * a1)
			q2 += xc * (ld2 * a2)
			q3 += xc * (ld3 * a3)
		}
		o := out[i*4 : i*4+4 : i*4+4]
		o[0], o[1], o[2], o[3] = q0, q1, q2, q3
		p0, p1, p2, p3 = q0, q1, q2, q3
	}
}
