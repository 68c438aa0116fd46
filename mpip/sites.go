package mpip

import (
	"math"
	"strconv"
	"strings"
)

// maxCount bounds a Count: mpiP prints it with %lld from a 64-bit counter (mpip-format.md
// §3.7, §3.8), so a whole number in [0, 2^63).
const maxCount = 1 << 63

// siteKey names one call site of one statistics section: section kind, operation, site ID.
type siteKey struct {
	kind, name string
	site       int
}

// siteSum accumulates a site's per-rank rows until its * row: Σ Count and Σ Count×Mean.
type siteSum struct {
	count, timeMS, countMS float64
	rows                   int
	star                   bool
}

// siteChecks holds what the per-site consistency checks need across rows and sections.
type siteChecks struct {
	sites  map[siteKey]*siteSum
	ranks  map[siteKey]map[int]bool
	titles map[string]int // section title (trailing count stripped) → line of its banner
	csN    int            // N of the open "Callsites: N" section, -1 when none is open
	csLine int
	csIDs  map[int]bool
	csLev0 map[int]bool
}

// sectionName strips the trailing count of a title ("Callsites: 9" → "Callsites").
func sectionName(title string) (string, int, bool) {
	i := strings.LastIndex(title, ":")
	if i < 0 {
		return title, 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimRight(title[i+1:], "- ")))
	if err != nil {
		return title, 0, false
	}
	return strings.TrimSpace(title[:i]), n, true
}

// openSection refuses a section that appears twice (mpiP writes each section once per
// report, mpip-format.md §1; -v writes concise and verbose reports to separate files) and
// starts the Callsites count check.
func (p *parser) openSection(title string) error {
	c := &p.checks
	if c.titles == nil {
		c.titles = map[string]int{}
		c.sites = map[siteKey]*siteSum{}
		c.ranks = map[siteKey]map[int]bool{}
	}
	name, n, counted := sectionName(title)
	if prev, ok := c.titles[name]; ok {
		return p.errf("section %q appears twice (first at line %d): mpiP writes each section once per report; the report is damaged", name, prev)
	}
	if err := p.closeSection(); err != nil {
		return err
	}
	c.titles[name] = p.line
	c.csN = -1
	if name == "Callsites" && counted {
		c.csN, c.csLine, c.csIDs, c.csLev0 = n, p.line, map[int]bool{}, map[int]bool{}
	}
	return nil
}

// closeSection checks the section being left: a "Callsites: N" header must list N sites.
func (p *parser) closeSection() error {
	c := &p.checks
	if c.csN < 0 || c.csIDs == nil {
		return nil
	}
	n := len(c.csIDs)
	c.csIDs = nil
	if n != c.csN {
		return &ParseError{File: p.rep.File, Line: c.csLine, Msg: "section \"Callsites: " + strconv.Itoa(c.csN) + "\" lists " + strconv.Itoa(n) + " sites: the header and the rows disagree (the report is damaged)"}
	}
	return nil
}

// callsiteRow reads " ID Lev File/Address …": the first two columns are whole numbers;
// an (ID, Lev 0) pair appears once.
func (p *parser) callsiteRow(f []string) error {
	c := &p.checks
	if c.csIDs == nil || len(f) < 2 || f[0] == "ID" {
		return nil
	}
	id, err1 := strconv.Atoi(f[0])
	lev, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return p.errf("section \"Callsites\": expected \"ID Lev …\" with whole numbers, got %q", clip(strings.Join(f, " ")))
	}
	if lev == 0 {
		if c.csLev0[id] {
			return p.errf("section \"Callsites\": site %d is listed twice (the report is damaged)", id)
		}
		c.csLev0[id] = true
	}
	c.csIDs[id] = true
	return nil
}

// ranksKnown is P when the header or the MPI Time section has given it already, else 0.
func (p *parser) ranksKnown() int {
	if n := len(p.rep.Hosts); n > 0 {
		return n
	}
	return len(p.rep.AppTime)
}

// wholeCount refuses a Count that is not a whole number in [0, 2^63).
func (p *parser) wholeCount(s string, v float64) error {
	if !(v >= 0 && v < maxCount && v == math.Trunc(v)) {
		return p.errf("section %q: Count %q is not a whole number of calls ≥ 0 (mpiP prints a 64-bit count)", p.section, s)
	}
	return nil
}

// thresholded reports whether the report was made with a -t threshold above 0, which drops
// per-rank rows below it (mpip-format.md §3.7); with none, every rank that ran a site has a row.
func (p *parser) thresholded() bool {
	f := strings.Fields(p.rep.EnvVar)
	for i, s := range f {
		if !strings.HasPrefix(s, "-t") {
			continue
		}
		v := strings.TrimPrefix(s, "-t")
		if v == "" && i+1 < len(f) {
			v = f[i+1]
		}
		if x, err := strconv.ParseFloat(v, 64); err != nil || x > 0 {
			return true
		}
	}
	return false
}

// rankRow records a per-rank row of a site (Count v[0], Mean v[2]): a rank below P, once
// per site.
func (p *parser) rankRow(name string, site, rank int, v []float64) error {
	if P := p.ranksKnown(); P > 0 && rank >= P {
		return p.errf("section %q: rank %d of a report of %d ranks", p.section, rank, P)
	}
	k := siteKey{p.kind, name, site}
	seen := p.checks.ranks[k]
	if seen == nil {
		seen = map[int]bool{}
		p.checks.ranks[k] = seen
	}
	if seen[rank] {
		return p.errf("section %q: a second row for %s site %d rank %d (the report is damaged)", p.section, name, site, rank)
	}
	seen[rank] = true
	s := p.checks.sites[k]
	if s == nil {
		s = &siteSum{}
		p.checks.sites[k] = s
	}
	if s.star {
		return p.errf("section %q: %s site %d: a rank row after the site's * row (the report is damaged)", p.section, name, site)
	}
	s.count += v[0]
	s.timeMS += v[0] * v[2]
	s.rows++
	return nil
}

// starAgrees checks a site's * row (Count v[0], Mean v[2]) against its rank rows: the * row
// holds sums over ranks (mpip-format.md §3.7), so its Count is Σ Count of the rank rows and
// Count×Mean is Σ Count×Mean within the rounding of Mean (3 significant digits, or 3
// decimals with -e: 0.5 % relative plus 0.0005 ms per call). Where rank rows may be left
// out (-t threshold; sent and I/O rows with no bytes) the sums are bounds only.
func (p *parser) starAgrees(name string, site int, v []float64) error {
	k := siteKey{p.kind, name, site}
	s := p.checks.sites[k]
	if s == nil {
		s = &siteSum{}
		p.checks.sites[k] = s
	}
	if s.star {
		return p.errf("section %q: a second * row for %s site %d (the report is damaged)", p.section, name, site)
	}
	s.star = true
	if s.rows == 0 {
		return nil
	}
	exact := p.kind == "time" && !p.thresholded()
	if (exact && s.count != v[0]) || s.count > v[0] {
		return p.errf("section %q: %s site %d: the * row's Count %.0f disagrees with its rank rows, which add to %.0f (the report is damaged)", p.section, name, site, v[0], s.count)
	}
	if p.kind != "time" {
		return nil
	}
	star := v[0] * v[2]
	tol := 0.006*(star+s.timeMS) + 0.0005*(v[0]+s.count) + 1e-9
	if s.timeMS > star+tol || (exact && star > s.timeMS+tol) {
		return p.errf("section %q: %s site %d: the * row's time Count×Mean = %.4g ms disagrees with its rank rows, which add to %.4g ms (the report is damaged)", p.section, name, site, star, s.timeMS)
	}
	return nil
}
