package answer

import (
	"strings"
	"unicode/utf8"

	"github.com/clusterperf/clusterperf/report"
)

// builder assembles an answer from clauses in order of importance: the summary is as many
// leading clauses as fit one line of the table format (report.TextWidth), joined by "; ";
// the clauses that do not fit, and every clause's longer explanation, become Details.
type builder struct {
	a       report.Answer
	clauses []clause
	// cost, when not "", follows the recommended configuration's time in its clause
	// (history: ", 0.083 node-hours").
	cost string
}

type clause struct {
	short   string
	details []string
}

// say adds a clause (short, no final period) and the sentences that explain it.
func (b *builder) say(short string, details ...string) {
	if short == "" && len(details) == 0 {
		return
	}
	b.clauses = append(b.clauses, clause{short, details})
}

// done returns the answer: summary, details, facts.
func (b *builder) done() report.Answer {
	var sum []string
	var det []string
	full := false
	for _, c := range b.clauses {
		if c.short == "" {
			det = append(det, c.details...)
			continue
		}
		try := strings.Join(append(append([]string{}, sum...), c.short), "; ") + "."
		if !full && utf8.RuneCountInString(try) <= report.TextWidth {
			sum = append(sum, c.short)
		} else {
			full = true
			det = append(det, capital(c.short)+".")
		}
		det = append(det, c.details...)
	}
	if len(sum) == 0 && len(det) > 0 { // the first clause alone is too long: cut it at a word
		s := det[0]
		r := []rune(s)
		cut := string(r[:report.TextWidth-1])
		if i := strings.LastIndex(cut, " "); i > 0 {
			cut = cut[:i]
		}
		sum = []string{strings.TrimSuffix(cut, ".") + "…"}
		det[0] = "…" + strings.TrimPrefix(s, cut)
	}
	b.a.Summary = capital(strings.Join(sum, "; "))
	if !strings.HasSuffix(b.a.Summary, "…") {
		b.a.Summary += "."
	}
	b.a.Details = det
	return b.a
}

// capital upper-cases the first letter of s.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return strings.ToUpper(string(r)) + s[n:]
}
