package mpip

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
)

// OpStats aggregates one MPI operation over its callsites.
type OpStats struct {
	Name     string
	Sites    int       // callsites seen
	Count    float64   // calls over all ranks (0 when the report does not give counts: concise)
	TimeMS   float64   // cumulative time over all ranks, ms (Σ Count×Mean of the * rows)
	RankMS   []float64 // cumulative time per rank, ms (verbose; rows hidden by -t are missing)
	Bytes    float64   // bytes sent (Callsite Message Sent statistics)
	Messages float64   // calls that sent bytes
	IOBytes  float64   // bytes moved by MPI-IO
	// IdleMS is the part of TimeMS above each call site's fastest call, Σ Count×(Mean − Min)
	// of the * rows (concise: Tasks×(Mean − Min) of per-task times), ms: in a blocking
	// collective, the time spent waiting for the other ranks (IdleSplit).
	IdleMS float64
	// SizeVaries: some call site sent messages of different sizes (Sent statistics' Max ≠
	// Min), so its fastest call may be a smaller one and IdleMS overstates the waiting.
	SizeVaries bool
	// Line is the line of its Callsite Time row (rank *, or concise) with the largest time,
	// for messages about the operation's time (0: none).
	Line   int
	lineMS float64
}

// Report is what clusterperf takes from one mpiP report.
type Report struct {
	File       string
	Version    string
	Command    string
	EnvVar     string
	Generation string   // "Single collector task" or "Collective"
	Hosts      []string // rank → host (verbose reports)
	Ranks      int
	Concise    bool
	AppTime    []float64 // per rank, s (verbose)
	MPITime    []float64 // per rank, s (verbose)
	TotalApp   float64   // Σ AppTime, s (the * row, or Aggregate in concise reports)
	TotalMPI   float64   // Σ MPITime, s
	Ops        map[string]*OpStats
	Sections   []string // section titles in order
	Skipped    []string // unknown blocks skipped, with their line numbers
	Callsites  bool     // the Callsite statistics sections were present (not -d)
	MPILine    int      // line of the MPI Time * row (or concise Aggregate row): ΣMPITime
}

// ParseError locates a problem in a report: file, line (0 if none) and message. It is the
// error type of every clusterperf input reader.
type ParseError = spec.Error

var (
	headerRe = regexp.MustCompile(`^@ (\S.*?)\s*: ?(.*)$`)
	fileRe   = regexp.MustCompile(`\.(\d+)\.\d+\.\d+\.mpiP$`)
)

// MaxLineBytes bounds one line of a report.
const MaxLineBytes = 1 << 20

// Parse reads one mpiP report. Errors name the line and what was expected: a file that is not
// an mpiP report, one that is truncated (no End of Report), or one whose sections contradict
// each other.
func Parse(file string, r io.Reader) (*Report, error) {
	p := &parser{rep: &Report{File: file, Ops: map[string]*OpStats{}}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLineBytes)
	for sc.Scan() {
		p.line++
		if err := p.feed(strings.TrimRight(sc.Text(), "\r\n")); err != nil {
			return nil, err
		}
		if p.done {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, p.errf("cannot read: %v", err)
	}
	if p.line == 0 {
		return nil, &ParseError{File: file, Msg: "empty file: not an mpiP report"}
	}
	if !p.done {
		return nil, p.errf("truncated: the report ends inside %q without the \"@--- End of Report\" banner", p.section)
	}
	return p.finish()
}

type parser struct {
	rep       *Report
	line      int
	started   bool
	section   string
	kind      string // table kind of the current section
	header    []string
	skipUntil string
	done      bool
	mpiRows   map[int]bool
	starApp   float64
	starMPI   float64
	haveStar  bool
	starLine  int
	timeStar  bool // * rows seen in Callsite Time statistics
	checks    siteChecks
}

func (p *parser) errf(format string, args ...any) error {
	return &ParseError{File: p.rep.File, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) feed(l string) error {
	if !p.started {
		if strings.TrimSpace(l) == "" {
			return nil
		}
		if strings.TrimSpace(l) != "@ mpiP" {
			return p.errf("not an mpiP report: expected the first line \"@ mpiP\", got %q", clip(l))
		}
		p.started = true
		return nil
	}
	if p.skipUntil != "" {
		if strings.Contains(l, p.skipUntil) {
			p.skipUntil = ""
		}
		return nil
	}
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(t, "@--- "):
		title := strings.TrimSpace(strings.TrimRight(strings.TrimPrefix(t, "@--- "), "- "))
		if strings.HasPrefix(title, "End of Report") {
			p.done = true
			return p.closeSection()
		}
		if err := p.openSection(title); err != nil {
			return err
		}
		p.section, p.header = title, nil
		p.kind = sectionKind(title)
		p.rep.Sections = append(p.rep.Sections, title)
		if p.kind == "time" || p.kind == "time-concise" {
			p.rep.Callsites = true
		}
		return nil
	case strings.HasPrefix(t, "@ ") && p.section == "":
		return p.headerLine(t)
	case t == "" || strings.Trim(t, "-") == "":
		return nil
	case strings.HasPrefix(t, "-------") && strings.Contains(t, "Start "):
		// a non-standard block (e.g. mpiP_cm's Communication Matrix): skip to its End line
		name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "Start ", 2)[1], "- "))
		p.skipUntil = "End " + name
		p.rep.Skipped = append(p.rep.Skipped, fmt.Sprintf("line %d: %s", p.line, name))
		return nil
	}
	if p.section == "" {
		return p.errf("unexpected text before the first section: %q", clip(l))
	}
	f := strings.Fields(t)
	if p.kind == "" {
		return p.callsiteRow(f) // else a section clusterperf does not use
	}
	if p.header == nil {
		p.header = f
		return p.checkHeader()
	}
	return p.row(f, l)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// sectionKind maps a section title to the table it holds ("" = not used).
func sectionKind(title string) string {
	switch {
	case strings.HasPrefix(title, "MPI Time (seconds)"):
		return "mpitime"
	case strings.HasPrefix(title, "Task Time Statistics"):
		return "tasktime"
	case strings.HasPrefix(title, "Callsite Time statistics (all callsites"):
		return "time-concise"
	case strings.HasPrefix(title, "Callsite Time statistics"), strings.HasPrefix(title, "Callsite statistics (all, milliseconds)"):
		return "time"
	case strings.HasPrefix(title, "Callsite Message Sent statistics (all callsites"):
		return "sent-concise"
	case strings.HasPrefix(title, "Callsite Message Sent statistics"), strings.HasPrefix(title, "Callsite statistics (all, sent bytes)"):
		return "sent"
	case strings.HasPrefix(title, "Callsite I/O statistics (all callsites"):
		return "io-concise"
	case strings.HasPrefix(title, "Callsite I/O statistics"):
		return "io"
	}
	return ""
}

var wantHeader = map[string][]string{
	"mpitime":      {"Task", "AppTime", "MPITime", "MPI%"},
	"tasktime":     {"AppTime", "MPITime"},
	"time":         {"Name", "Site", "Rank", "Count", "Max", "Mean", "Min"},
	"time-concise": {"Name", "Site", "Tasks", "Max", "Mean", "Min"},
	"sent":         {"Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "Sum"},
	"sent-concise": {"Name", "Site", "Tasks", "Max", "Mean", "Min"},
	"io":           {"Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "Sum"},
	"io-concise":   {"Name", "Site", "Tasks", "Max", "Mean", "Min"},
}

func (p *parser) checkHeader() error {
	want := wantHeader[p.kind]
	if len(p.header) < len(want) {
		return p.errf("section %q: expected a column header starting %q, got %q", p.section, strings.Join(want, " "), strings.Join(p.header, " "))
	}
	for i, w := range want {
		if p.header[i] != w {
			return p.errf("section %q: expected column %d to be %q, got %q", p.section, i+1, w, p.header[i])
		}
	}
	return nil
}

func (p *parser) headerLine(t string) error {
	m := headerRe.FindStringSubmatch(t)
	if m == nil {
		return nil
	}
	name, val := m[1], strings.TrimSpace(m[2])
	rep := p.rep
	switch name {
	case "Command":
		rep.Command = val
	case "Version":
		rep.Version = val
	case "MPIP env var":
		rep.EnvVar = val
	case "Report generation":
		rep.Generation = val
	case "MPI Task Assignment":
		f := strings.Fields(val)
		if len(f) < 1 {
			return p.errf("MPI Task Assignment: expected \"<rank> <host>\", got %q", val)
		}
		rank, err := strconv.Atoi(f[0])
		if err != nil || rank != len(rep.Hosts) {
			return p.errf("MPI Task Assignment: expected rank %d, got %q", len(rep.Hosts), f[0])
		}
		host := ""
		if len(f) > 1 {
			host = f[1]
		}
		rep.Hosts = append(rep.Hosts, host)
	}
	return nil
}

// num parses a report number ("1.17e+03", "0.0138", "-nan" for undefined percentages).
func num(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

func (p *parser) nums(f []string, what string) ([]float64, error) {
	out := make([]float64, len(f))
	for i, s := range f {
		v, ok := num(s)
		if !ok || math.IsInf(v, 0) {
			return nil, p.errf("section %q: %s: %q is not a number", p.section, what, s)
		}
		out[i] = v
	}
	return out, nil
}

func (p *parser) op(name string) *OpStats {
	o := p.rep.Ops[name]
	if o == nil {
		o = &OpStats{Name: name}
		p.rep.Ops[name] = o
	}
	return o
}

// row reads one data row of the current section (p.kind).
func (p *parser) row(f []string, raw string) error {
	switch p.kind {
	case "mpitime":
		return p.mpiTimeRow(f, raw)
	case "tasktime":
		p.rep.Concise = true
		if f[0] == "Aggregate" {
			if len(f) < 3 {
				return p.errf("section %q: expected \"Aggregate ΣAppTime ΣMPITime …\"", p.section)
			}
			v, err := p.nums(f[1:3], "Aggregate")
			if err != nil {
				return err
			}
			p.starApp, p.starMPI, p.haveStar, p.starLine = v[0], v[1], true, p.line
		}
	case "time", "sent", "io":
		return p.siteRow(f, raw)
	case "time-concise", "sent-concise", "io-concise":
		return p.conciseRow(f, raw)
	}
	return nil
}

// mpiTimeRow reads "Task AppTime MPITime MPI%": the tasks in order 0, 1, …, or the "*"
// aggregate; times are seconds ≥ 0.
func (p *parser) mpiTimeRow(f []string, raw string) error {
	rep := p.rep
	if len(f) != 4 {
		return p.errf("section %q: expected \"Task AppTime MPITime MPI%%\" (4 columns), got %q", p.section, clip(raw))
	}
	v, err := p.nums(f[1:3], "AppTime/MPITime")
	if err != nil {
		return err
	}
	// times must be numbers ≥ 0 ("-nan" is mpiP's way of printing an undefined
	// percentage, never a time)
	for i, t := range v {
		if !(t >= 0) {
			return p.errf("section %q: %s %q must be a time in seconds ≥ 0", p.section, []string{"AppTime", "MPITime"}[i], f[1+i])
		}
	}
	if f[0] == "*" {
		p.starApp, p.starMPI, p.haveStar, p.starLine = v[0], v[1], true, p.line
		return nil
	}
	rank, err := strconv.Atoi(f[0])
	if err != nil || rank != len(rep.AppTime) {
		return p.errf("section %q: expected task %d, got %q", p.section, len(rep.AppTime), f[0])
	}
	rep.AppTime = append(rep.AppTime, v[0])
	rep.MPITime = append(rep.MPITime, v[1])
	return nil
}

// siteRow reads a per-site statistics row (Name Site Rank Count Max Mean Min …; 9 columns
// for time, 7 in old layouts, 8 for sent and io): the "*" row of a site goes to starRow;
// a rank's time row adds Count × Mean to the operation's time at that rank.
func (p *parser) siteRow(f []string, raw string) error {
	want := 9
	if p.kind != "time" {
		want = 8
	}
	if len(f) < want-2 || len(f) > want {
		return p.errf("section %q: expected %d columns (%s), got %q", p.section, want, strings.Join(p.header, " "), clip(raw))
	}
	if len(f) != want {
		if p.kind == "time" && len(f) == 7 && looksNumeric(f[1]) {
			// Old layouts without App%/MPI% would land here; accept 7 columns.
		} else {
			return p.errf("section %q: expected %d columns (%s), got %q", p.section, want, strings.Join(p.header, " "), clip(raw))
		}
	}
	site, err := strconv.Atoi(f[1])
	if err != nil {
		return p.errf("section %q: site %q is not a whole number", p.section, f[1])
	}
	v, err := p.nums(f[3:7], "Count/Max/Mean/Min")
	if err == nil {
		err = p.wholeCount(f[3], v[0])
	}
	if err == nil {
		err = p.ordered(v[1:], f[0])
	}
	if err != nil {
		return err
	}
	o := p.op(f[0])
	if f[2] == "*" {
		if err := p.starAgrees(f[0], site, v); err != nil {
			return err
		}
		return p.starRow(o, f, v)
	}
	rank, err := strconv.Atoi(f[2])
	if err != nil || rank < 0 {
		return p.errf("section %q: rank %q is not a rank number or *", p.section, f[2])
	}
	if err := p.rankRow(f[0], site, rank, v); err != nil {
		return err
	}
	if p.kind == "time" {
		if rank >= 1<<20 {
			return p.errf("section %q: rank %d is implausibly large", p.section, rank)
		}
		for len(o.RankMS) <= rank {
			o.RankMS = append(o.RankMS, 0)
		}
		o.RankMS[rank] += v[0] * v[2]
	}
	return nil
}

// conciseRow reads a concise-report row (Name Site Tasks Max Mean Min …): Tasks × Mean is
// the site's time (with idle Tasks × (Mean − Min)), bytes sent, or I/O bytes.
func (p *parser) conciseRow(f []string, raw string) error {
	if len(f) < 6 {
		return p.errf("section %q: expected Name Site Tasks Max Mean Min MaxRnk MinRnk, got %q", p.section, clip(raw))
	}
	v, err := p.nums(f[2:6], "Tasks/Max/Mean/Min")
	if err == nil {
		err = p.ordered(v[1:], f[0])
	}
	if err != nil {
		return err
	}
	o := p.op(f[0])
	switch p.kind {
	case "time-concise":
		o.Sites++
		o.TimeMS += v[0] * v[2] // Tasks × mean per-task cumulative time
		o.IdleMS += v[0] * (v[2] - v[3])
		o.atLine(v[0]*v[2], p.line)
		p.timeStar = true
	case "sent-concise":
		o.Bytes += v[0] * v[2]
		o.SizeVaries = o.SizeVaries || v[1] != v[3]
	case "io-concise":
		o.IOBytes += v[0] * v[2]
	}
	return nil
}

func looksNumeric(s string) bool { _, ok := num(s); return ok }

func (p *parser) finish() (*Report, error) {
	rep := p.rep
	if !p.haveStar {
		return nil, &ParseError{File: rep.File, Msg: "no MPI Time (or Task Time Statistics) totals: is this a complete mpiP report?"}
	}
	rep.TotalApp, rep.TotalMPI, rep.MPILine = p.starApp, p.starMPI, p.starLine
	switch {
	case len(rep.Hosts) > 0:
		rep.Ranks = len(rep.Hosts)
	case len(rep.AppTime) > 0:
		rep.Ranks = len(rep.AppTime)
	default:
		if m := fileRe.FindStringSubmatch(filepath.Base(rep.File)); m != nil {
			rep.Ranks, _ = strconv.Atoi(m[1])
		}
	}
	if rep.Ranks == 0 {
		return nil, &ParseError{File: rep.File, Msg: "cannot tell the number of ranks (no task lines, no <app>.<P>.<pid>.<k>.mpiP file name)"}
	}
	if len(rep.AppTime) > 0 {
		if len(rep.Hosts) > 0 && len(rep.AppTime) != len(rep.Hosts) {
			return nil, &ParseError{File: rep.File, Line: p.starLine, Msg: fmt.Sprintf("inconsistent: %d MPI Time rows for %d assigned tasks", len(rep.AppTime), len(rep.Hosts))}
		}
		sa, sm := 0.0, 0.0
		for i := range rep.AppTime {
			sa += rep.AppTime[i]
			sm += rep.MPITime[i]
		}
		// 3 significant digits per value: allow the rounding of every row and of the total.
		tol := func(total float64, n int) float64 {
			return 0.005*math.Abs(total) + 0.0005*float64(n)*math.Abs(total)/float64(n) + 1e-9
		}
		if math.Abs(sa-rep.TotalApp) > tol(rep.TotalApp, len(rep.AppTime)) || math.Abs(sm-rep.TotalMPI) > tol(rep.TotalMPI, len(rep.MPITime)) {
			return nil, &ParseError{File: rep.File, Line: p.starLine, Msg: fmt.Sprintf("inconsistent: the * row says AppTime %.4g, MPITime %.4g but the tasks add to %.4g, %.4g", rep.TotalApp, rep.TotalMPI, sa, sm)}
		}
	}
	return rep, nil
}

// OpNames returns the operation names, sorted by time, descending.
func (r *Report) OpNames() []string {
	names := make([]string, 0, len(r.Ops))
	for n := range r.Ops {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := r.Ops[names[i]], r.Ops[names[j]]
		if a.TimeMS != b.TimeMS {
			return a.TimeMS > b.TimeMS
		}
		return a.Name < b.Name
	})
	return names
}

// WallTime is max_r AppTime(r) (verbose reports), else TotalApp/Ranks.
func (r *Report) WallTime() float64 {
	if len(r.AppTime) == 0 {
		return r.TotalApp / float64(r.Ranks)
	}
	m := 0.0
	for _, a := range r.AppTime {
		m = math.Max(m, a)
	}
	return m
}

// starRow adds a call site's aggregate row (rank *) of the Callsite Time, Sent or I/O
// statistics to its operation: counts, time and idle part (time), messages and bytes (sent).
func (p *parser) starRow(o *OpStats, f []string, v []float64) error {
	switch p.kind {
	case "time":
		o.Sites++
		o.Count += v[0]
		o.TimeMS += v[0] * v[2]
		o.IdleMS += v[0] * (v[2] - v[3]) // ≥ 0: Mean ≥ Min checked (ordered)
		o.atLine(v[0]*v[2], p.line)
		p.timeStar = true
	case "sent":
		sum, ok := num(f[7])
		if !ok {
			return p.errf("section %q: Sum %q is not a number", p.section, f[7])
		}
		o.Messages += v[0]
		o.Bytes += sum
		o.SizeVaries = o.SizeVaries || v[1] != v[3]
	case "io":
		sum, _ := num(f[7])
		o.IOBytes += sum
	}
	return nil
}
