package cube

import (
	"fmt"
	"slices"
	"strings"
)

// MetricByName is the metric of that uniq_name (nil when absent).
func (p *Profile) MetricByName(name string) *Metric {
	for i := range p.Metrics {
		if p.Metrics[i].Name == name {
			return &p.Metrics[i]
		}
	}
	return nil
}

// Region is the region a call path calls.
func (p *Profile) RegionOf(cnode int) Region {
	return p.Regions[p.regionPos[p.CNodes[p.cnodePos[cnode]].Region]]
}

// Path is the call path's region names from its root, joined by "->" (Extra-P's notation).
func (p *Profile) Path(cnode int) string {
	var names []string
	for id := cnode; id >= 0; id = p.CNodes[p.cnodePos[id]].Parent {
		names = append(names, p.RegionOf(id).Name)
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	return strings.Join(names, "->")
}

// stored is the metric's value of the call path summed over locations, as stored.
func (p *Profile) stored(m *Metric, cnode int) float64 {
	v := p.values[m.ID]
	if v == nil {
		return 0
	}
	L := len(p.Locations)
	pos := p.cnodePos[cnode]
	row := v[pos*L : pos*L+L]
	switch {
	case m.Extremum() == "min":
		return slices.Min(row)
	case m.Extremum() == "max":
		return slices.Max(row)
	}
	s := 0.0
	for _, x := range row {
		s += x
	}
	return s
}

// Extremum is "min" or "max" for a MINDOUBLE or MAXDOUBLE metric (Score-P's min_time and
// max_time): its values combine by minimum or maximum, not by sum, and it has no inclusive
// or exclusive conversion; "" otherwise.
func (m *Metric) Extremum() string {
	switch strings.ToUpper(m.DType) {
	case "MINDOUBLE":
		return "min"
	case "MAXDOUBLE":
		return "max"
	}
	return ""
}

// Inclusive is the metric of the call path and everything it calls, summed over locations:
// the stored value for an INCLUSIVE metric, the sum over the subtree for an EXCLUSIVE one.
func (p *Profile) Inclusive(m *Metric, cnode int) float64 {
	if m.Kind != "EXCLUSIVE" || m.Extremum() != "" {
		return p.stored(m, cnode)
	}
	s := p.stored(m, cnode)
	for _, c := range p.CNodes[p.cnodePos[cnode]].Children {
		s += p.Inclusive(m, c)
	}
	return s
}

// Exclusive is the metric of the call path itself, without its callees: the stored value for
// an EXCLUSIVE metric, the inclusive value less the children's for an INCLUSIVE one.
func (p *Profile) Exclusive(m *Metric, cnode int) float64 {
	if m.Kind == "EXCLUSIVE" || m.Extremum() != "" {
		return p.stored(m, cnode)
	}
	s := p.stored(m, cnode)
	for _, c := range p.CNodes[p.cnodePos[cnode]].Children {
		s -= p.stored(m, c)
	}
	return s
}

// Roots are the call tree's roots.
func (p *Profile) Roots() []int {
	var r []int
	for _, c := range p.CNodes {
		if c.Parent < 0 {
			r = append(r, c.ID)
		}
	}
	return r
}

// CheckTree verifies, for every metric with data, that each root's inclusive value equals the
// sum of the exclusive values over its call tree (to a relative 1e-9 of the largest value
// involved) and, for a time metric, that no call path's exclusive time is negative beyond that
// tolerance (an inclusive time smaller than its children's). fault.ErrInput names the metric
// and the call path.
func (p *Profile) CheckTree() error {
	for i := range p.Metrics {
		m := &p.Metrics[i]
		if !m.HasData || m.Extremum() != "" {
			continue
		}
		for _, root := range p.Roots() {
			incl := p.Inclusive(m, root)
			sum, scale := 0.0, abs(incl)
			var walk func(id int)
			walk = func(id int) {
				e := p.Exclusive(m, id)
				sum += e
				scale = max(scale, abs(p.stored(m, id)))
				for _, c := range p.CNodes[p.cnodePos[id]].Children {
					walk(c)
				}
			}
			walk(root)
			if abs(incl-sum) > 1e-9*max(scale, 1e-300) {
				return inputErr(p.File, fmt.Sprintf("%d.data", m.ID), "metric %q: root %q inclusive %g ≠ %g, the sum over its call tree", m.Name, p.Path(root), incl, sum)
			}
			if m.Name != "time" && m.Unit != "sec" {
				continue
			}
			for _, c := range p.CNodes {
				if e := p.Exclusive(m, c.ID); e < -1e-9*max(scale, 1e-300) {
					return inputErr(p.File, fmt.Sprintf("%d.data", m.ID), "metric %q: call path %q: exclusive time %g s < 0 (its inclusive time %g s is smaller than its callees')", m.Name, p.Path(c.ID), e, p.Inclusive(m, c.ID))
				}
			}
		}
	}
	return nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
