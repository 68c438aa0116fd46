package tpn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/internal/input"
)

// PNML namespaces and this tool's name in toolspecific blocks.
const (
	pnmlNS    = "http://www.pnml.org/version-2009/grammar/pnml"
	ptnetType = "http://www.pnml.org/version-2009/grammar/ptnet"
	toolName  = "clusterperf"
)

type xText struct {
	Text string `xml:"text"`
}

type xTool struct {
	Tool     string  `xml:"tool,attr"`
	Version  string  `xml:"version,attr"`
	Delay    *string `xml:"delay,omitempty"`
	Server   string  `xml:"server,omitempty"`
	Priority string  `xml:"priority,omitempty"`
	Process  string  `xml:"process,omitempty"`
	Kind     string  `xml:"kind,omitempty"`
	Loop     string  `xml:"loop,omitempty"`  // the program loop a transition belongs to (loopnet.go)
	Label    string  `xml:"label,omitempty"` // a place's role ("loop counter", "cpu", …)
	Medium   string  `xml:"medium,omitempty"`
	Bytes    string  `xml:"bytes,omitempty"`
	Final    string  `xml:"final,omitempty"`
	// media are described once, in the net's toolspecific block
	Media []xMedium `xml:"medium-def,omitempty"`
}

type xMedium struct {
	Line      int    `xml:"-"` // the line of its start tag (UnmarshalXML)
	Name      string `xml:"name,attr"`
	Startup   string `xml:"startup,attr"`
	Bandwidth string `xml:"bandwidth,attr"`
	Shared    bool   `xml:"shared,attr"`
	Policy    string `xml:"policy,attr"`
}

type xPlace struct {
	Line    int     `xml:"-"` // the line of its start tag (UnmarshalXML)
	ID      string  `xml:"id,attr"`
	Name    *xText  `xml:"name,omitempty"`
	Initial *xText  `xml:"initialMarking,omitempty"`
	Tools   []xTool `xml:"toolspecific"`
}

type xTransition struct {
	Line  int     `xml:"-"` // the line of its start tag (UnmarshalXML)
	ID    string  `xml:"id,attr"`
	Name  *xText  `xml:"name,omitempty"`
	Tools []xTool `xml:"toolspecific"`
}

type xArc struct {
	Line        int    `xml:"-"` // the line of its start tag (UnmarshalXML)
	ID          string `xml:"id,attr"`
	Source      string `xml:"source,attr"`
	Target      string `xml:"target,attr"`
	Inscription *xText `xml:"inscription,omitempty"`
}

type xPage struct {
	ID          string        `xml:"id,attr"`
	Places      []xPlace      `xml:"place"`
	Transitions []xTransition `xml:"transition"`
	Arcs        []xArc        `xml:"arc"`
	Pages       []xPage       `xml:"page"`
}

type xNet struct {
	ID    string  `xml:"id,attr"`
	Type  string  `xml:"type,attr"`
	Name  *xText  `xml:"name,omitempty"`
	Tools []xTool `xml:"toolspecific"`
	Pages []xPage `xml:"page"`
	// lenient: elements directly under net (tools that omit the page)
	Places      []xPlace      `xml:"place"`
	Transitions []xTransition `xml:"transition"`
	Arcs        []xArc        `xml:"arc"`
}

type xPNML struct {
	XMLName xml.Name `xml:"pnml"`
	Xmlns   string   `xml:"xmlns,attr,omitempty"`
	Nets    []xNet   `xml:"net"`
}

// UnmarshalXML methods decode an element as usual and note the line of its start tag, so
// that refusals name it (the decoder's position after the tag: the tag's last line). Each
// converts itself to a plain type (no UnmarshalXML method) so that decoding does not recurse.
func (x *xPlace) UnmarshalXML(d *xml.Decoder, start xml.StartElement) (err error) {
	type plain xPlace
	x.Line, err = decodeAtLine(d, start, (*plain)(x))
	return err
}

func (x *xTransition) UnmarshalXML(d *xml.Decoder, start xml.StartElement) (err error) {
	type plain xTransition
	x.Line, err = decodeAtLine(d, start, (*plain)(x))
	return err
}

func (x *xArc) UnmarshalXML(d *xml.Decoder, start xml.StartElement) (err error) {
	type plain xArc
	x.Line, err = decodeAtLine(d, start, (*plain)(x))
	return err
}

func (x *xMedium) UnmarshalXML(d *xml.Decoder, start xml.StartElement) (err error) {
	type plain xMedium
	x.Line, err = decodeAtLine(d, start, (*plain)(x))
	return err
}

// decodeAtLine decodes the element start into v and returns the line of its start tag.
func decodeAtLine(d *xml.Decoder, start xml.StartElement, v any) (int, error) {
	line, _ := d.InputPos()
	return line, d.DecodeElement(v, &start)
}

var nonNCName = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

func ncName(prefix string, i int, name string) string {
	s := nonNCName.ReplaceAllString(name, "_")
	return fmt.Sprintf("%s%d_%s", prefix, i, s)
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WritePNML writes the net as a PNML place/transition net; delays (seconds), server counts,
// priorities, processes, media and final markings go into toolspecific blocks of tool
// "clusterperf", so a round trip keeps the timing and other tools still read the net.
func WritePNML(w io.Writer, n *Net) error {
	net := xNet{ID: "net0", Type: ptnetType, Name: &xText{n.Name}}
	if len(n.Media) > 0 {
		t := xTool{Tool: toolName, Version: "1"}
		for _, m := range n.Media {
			pol := "static"
			if m.Policy == FluidSharing {
				pol = "fluid"
			}
			t.Media = append(t.Media, xMedium{Name: m.Name, Startup: ftoa(m.Startup), Bandwidth: ftoa(m.Bandwidth), Shared: m.Shared, Policy: pol})
		}
		net.Tools = append(net.Tools, t)
	}
	page := xPage{ID: "page0"}
	pid := make([]string, len(n.Places))
	for i, p := range n.Places {
		pid[i] = ncName("p", i, p.Name)
		xp := xPlace{ID: pid[i], Name: &xText{p.Name}}
		if p.Initial > 0 {
			xp.Initial = &xText{strconv.Itoa(p.Initial)}
		}
		if p.Process != "" || p.Final > 0 || p.Label != "" {
			t := xTool{Tool: toolName, Version: "1", Process: p.Process, Label: p.Label}
			if p.Final > 0 {
				t.Final = strconv.Itoa(p.Final)
			}
			xp.Tools = append(xp.Tools, t)
		}
		page.Places = append(page.Places, xp)
	}
	arc := 0
	for i, t := range n.Transitions {
		id := ncName("t", i, t.Name)
		d := ftoa(Seconds(t.Delay))
		tool := xTool{Tool: toolName, Version: "1", Delay: &d, Process: t.Process, Kind: t.Kind, Loop: t.Loop}
		switch t.Servers {
		case InfiniteServers:
			tool.Server = "inf"
		case 1:
			tool.Server = "1"
		default:
			tool.Server = strconv.Itoa(t.Servers)
		}
		if t.Priority != 0 {
			tool.Priority = strconv.Itoa(t.Priority)
		}
		if t.Medium > 0 {
			tool.Medium, tool.Bytes = strconv.Itoa(t.Medium), ftoa(t.Bytes)
		}
		page.Transitions = append(page.Transitions, xTransition{ID: id, Name: &xText{t.Name}, Tools: []xTool{tool}})
		for _, a := range t.In {
			xa := xArc{ID: fmt.Sprintf("a%d", arc), Source: pid[a.Place], Target: id}
			if a.Weight != 1 {
				xa.Inscription = &xText{strconv.Itoa(a.Weight)}
			}
			page.Arcs = append(page.Arcs, xa)
			arc++
		}
		for _, a := range t.Out {
			xa := xArc{ID: fmt.Sprintf("a%d", arc), Source: id, Target: pid[a.Place]}
			if a.Weight != 1 {
				xa.Inscription = &xText{strconv.Itoa(a.Weight)}
			}
			page.Arcs = append(page.Arcs, xa)
			arc++
		}
	}
	net.Pages = []xPage{page}
	doc := xPNML{Xmlns: pnmlNS, Nets: []xNet{net}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ReadPNML reads the first net of a PNML document. It is lenient where tools differ
// (elements outside a page, nested pages, unknown toolspecific blocks are ignored, a missing
// delay is 0) and strict where the net would be wrong: duplicate or missing ids, arcs between
// two places or two transitions, references to nothing, weights or markings that are not
// whole numbers ≥ 1 (≥ 0 for markings, at most MaxTokens), delays that are not finite
// numbers in [0, MaxSeconds], media whose startup or bandwidth is not finite, toolspecific
// numbers that do not parse. Errors name the element and wrap fault.ErrInput (at most 20
// listed).
func ReadPNML(r io.Reader) (*Net, error) { return readPNML("", r) }

// ReadPNMLFile reads the first net of the PNML file path (what `clusterperf tpn NET.pnml`
// needs) with the one input reader (internal/input: at most MaxPNMLBytes, devices and pipes
// bounded while read, no blocking on a FIFO): as ReadPNML, with every error naming the file
// and, for an element, its line. A net without a <name> is named by its id, else by the
// file's base name.
func ReadPNMLFile(path string) (*Net, error) {
	b, err := input.ReadLimit(path, MaxPNMLBytes)
	if err != nil {
		return nil, err
	}
	return readPNML(path, bytes.NewReader(b))
}

// MaxPNMLBytes bounds a PNML file (16 MiB: about 100 000 places and transitions with their
// arcs; decoding holds the document's tree, a few times its size, in memory).
const MaxPNMLBytes = 16 << 20

// MaxTokens bounds markings and arc weights read from PNML (2^40), so that token counts of
// a run stay far from overflow.
const MaxTokens = 1 << 40

// readPNML decodes one PNML document (the first net; pages flattened) into a Net and
// validates it; every problem is refused with the file and the line of its element
// (fault.ErrInput, at most maxErrors listed).
func readPNML(file string, r io.Reader) (*Net, error) {
	pr := &pnmlReader{file: file}
	var doc xPNML
	dec := xml.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		pr.line, _ = dec.InputPos()
		pr.bad("not PNML: %v", err)
		return nil, inputErrors(pr.errs)
	}
	if l, what := trailing(dec); l > 0 {
		pr.line = l
		pr.bad("%s after </pnml>: a PNML file holds one document", what)
		return nil, inputErrors(pr.errs)
	}
	if len(doc.Nets) == 0 {
		pr.bad("PNML has no net")
		return nil, inputErrors(pr.errs)
	}
	xn := doc.Nets[0]
	pr.n = &Net{ID: xn.ID, Name: netName(xn, file)}
	pr.media(xn)
	places, trans, arcs := append([]xPlace(nil), xn.Places...), append([]xTransition(nil), xn.Transitions...), append([]xArc(nil), xn.Arcs...)
	flattenPages(xn.Pages, &places, &trans, &arcs)
	pr.pidx, pr.tidx = map[string]int{}, map[string]int{}
	for _, p := range places {
		pr.place(p)
	}
	for _, t := range trans {
		pr.transition(t)
	}
	aidx := map[string]bool{}
	for _, a := range arcs {
		pr.arc(a, aidx)
	}
	pr.line = 0
	if err := inputErrors(pr.errs); err != nil {
		return nil, err
	}
	if err := pr.n.Validate(); err != nil {
		if file != "" {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return nil, err
	}
	return pr.n, nil
}

// pnmlReader is readPNML's state: the problems found, the line of the element being read
// (0 when none), the net built so far and the ids of its places and transitions.
type pnmlReader struct {
	file       string
	errs       []error
	line       int
	n          *Net
	pidx, tidx map[string]int
}

// bad records a problem at the current element's file:line, quoting at most a short
// excerpt of the file's text.
func (pr *pnmlReader) bad(format string, args ...any) {
	at := ""
	switch {
	case pr.line > 0 && pr.file != "":
		at = fmt.Sprintf("%s:%d: ", pr.file, pr.line)
	case pr.line > 0:
		at = fmt.Sprintf("line %d: ", pr.line)
	case pr.file != "":
		at = pr.file + ": "
	}
	pr.errs = append(pr.errs, errors.New(at+fmt.Sprintf(format, input.Short(args)...)))
}

// num reads a finite number ≥ 0 (0 after a refusal).
func (pr *pnmlReader) num(what, v string) float64 {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		pr.bad("%s %q is not a finite number ≥ 0", what, v)
		return 0
	}
	return x
}

// whole reads a whole number in lo … hi (lo after a refusal).
func (pr *pnmlReader) whole(what, v string, lo, hi int) int {
	x, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || x < lo || x > hi {
		pr.bad("%s %q is not a whole number in %d … %d", what, v, lo, hi)
		return lo
	}
	return x
}

// media reads the network media of the net's clusterperf block: startup in 0 … MaxSeconds,
// bandwidth > 0, policy static or fluid.
func (pr *pnmlReader) media(xn xNet) {
	for _, t := range xn.Tools {
		if t.Tool != toolName {
			continue
		}
		for _, m := range t.Media {
			pr.line = m.Line
			md := Medium{Name: m.Name, Shared: m.Shared}
			md.Startup = pr.num(fmt.Sprintf("medium %q: startup", m.Name), m.Startup)
			if md.Startup > MaxSeconds {
				pr.bad("medium %q: startup %g s beyond %.4g s", m.Name, md.Startup, MaxSeconds)
			}
			md.Bandwidth = pr.num(fmt.Sprintf("medium %q: bandwidth", m.Name), m.Bandwidth)
			if !(md.Bandwidth > 0) {
				pr.bad("medium %q: bandwidth must be > 0", m.Name)
				md.Bandwidth = 1
			}
			switch m.Policy {
			case "", "static":
			case "fluid":
				md.Policy = FluidSharing
			default:
				pr.bad("medium %q: policy %q (allowed: static, fluid)", m.Name, m.Policy)
			}
			pr.n.Media = append(pr.n.Media, md)
		}
	}
}

// flattenPages appends the places, transitions and arcs of pages and their sub-pages, in
// document order.
func flattenPages(ps []xPage, places *[]xPlace, trans *[]xTransition, arcs *[]xArc) {
	for _, p := range ps {
		*places = append(*places, p.Places...)
		*trans = append(*trans, p.Transitions...)
		*arcs = append(*arcs, p.Arcs...)
		flattenPages(p.Pages, places, trans, arcs)
	}
}

// place adds a place: a unique id, its name, initial marking and, from the clusterperf
// block, process, label and final marking.
func (pr *pnmlReader) place(p xPlace) {
	pr.line = p.Line
	if p.ID == "" {
		pr.bad("a place has no id")
		return
	}
	if _, dup := pr.pidx[p.ID]; dup {
		pr.bad("place id %q used twice", p.ID)
		return
	}
	pl := Place{Name: p.ID}
	if p.Name != nil && p.Name.Text != "" {
		pl.Name = p.Name.Text
	}
	if p.Initial != nil {
		pl.Initial = pr.whole(fmt.Sprintf("place %q: initial marking", p.ID), p.Initial.Text, 0, MaxTokens)
	}
	for _, t := range p.Tools {
		if t.Tool == toolName {
			pl.Process, pl.Label = t.Process, t.Label
			if t.Final != "" {
				pl.Final = pr.whole(fmt.Sprintf("place %q: final marking", p.ID), t.Final, 0, MaxTokens)
				pr.n.FinalSet = true
			}
		}
	}
	pr.pidx[p.ID] = pr.n.AddPlace(pl)
}

// transition adds a transition with a unique id, its name and its clusterperf block.
func (pr *pnmlReader) transition(t xTransition) {
	pr.line = t.Line
	if _, dup := pr.tidx[t.ID]; dup || dupPlace(pr.pidx, t.ID) {
		pr.bad("transition id %q used twice", t.ID)
		return
	}
	tr := Transition{Name: t.ID, Servers: 1}
	if t.Name != nil && t.Name.Text != "" {
		tr.Name = t.Name.Text
	}
	for _, tool := range t.Tools {
		if tool.Tool == toolName {
			pr.transitionTool(t.ID, tool, &tr)
		}
	}
	pr.tidx[t.ID] = pr.n.AddTransition(tr)
}

// transitionTool reads a transition's clusterperf block: delay in seconds (within 2^62
// ticks), servers (1, k ≥ 1 or inf), priority, process, kind, loop, and for a transfer its
// medium (1-based, among the net's) and message bytes.
func (pr *pnmlReader) transitionTool(id string, tool xTool, tr *Transition) {
	if tool.Delay != nil {
		d, err := strconv.ParseFloat(strings.TrimSpace(*tool.Delay), 64)
		ticks, terr := Ticks(d)
		if err != nil || terr != nil {
			pr.bad("transition %q: delay %q is not a number of seconds in 0 … %.4g (finite, ≥ 0, within 2^62 ticks of 1 ns)", id, *tool.Delay, MaxSeconds)
		}
		tr.Delay = ticks
	}
	switch tool.Server {
	case "", "1":
	case "inf":
		tr.Servers = InfiniteServers
	default:
		k, err := strconv.Atoi(tool.Server)
		if err != nil || k < 1 {
			pr.bad("transition %q: server %q (allowed: 1, k ≥ 1, inf)", id, tool.Server)
			k = 1
		}
		tr.Servers = k
	}
	if tool.Priority != "" {
		tr.Priority = pr.whole(fmt.Sprintf("transition %q: priority", id), tool.Priority, -1<<30, 1<<30)
	}
	tr.Process, tr.Kind, tr.Loop = tool.Process, tool.Kind, tool.Loop
	if tool.Medium != "" {
		media := len(pr.n.Media)
		tr.Medium = pr.whole(fmt.Sprintf("transition %q: medium", id), tool.Medium, 1, max(1, media))
		if media == 0 {
			pr.bad("transition %q: medium %q, but the net defines no media", id, tool.Medium)
			tr.Medium = 0
		}
		if tool.Bytes != "" {
			tr.Bytes = pr.num(fmt.Sprintf("transition %q: bytes", id), tool.Bytes)
		}
	}
}

// arc adds an arc (a unique id among all ids, a weight in 1 … MaxTokens) from a place to a
// transition (an input) or from a transition to a place (an output).
func (pr *pnmlReader) arc(a xArc, aidx map[string]bool) {
	pr.line = a.Line
	if _, isP := pr.pidx[a.ID]; a.ID != "" && (aidx[a.ID] || isP || dupPlace(pr.tidx, a.ID)) {
		pr.bad("arc id %q used twice (ids are unique in a PNML document)", a.ID)
		return
	}
	aidx[a.ID] = true
	w := 1
	if a.Inscription != nil {
		v, err := strconv.Atoi(strings.TrimSpace(a.Inscription.Text))
		if err != nil || v < 1 || v > MaxTokens {
			pr.bad("arc %q: weight %q must be a whole number in 1 … %d", a.ID, a.Inscription.Text, MaxTokens)
			return
		}
		w = v
	}
	n := pr.n
	sp, sIsP := pr.pidx[a.Source]
	st, sIsT := pr.tidx[a.Source]
	tp, tIsP := pr.pidx[a.Target]
	tt, tIsT := pr.tidx[a.Target]
	switch {
	case !sIsP && !sIsT:
		pr.bad("arc %q: source %q is no place or transition", a.ID, a.Source)
	case !tIsP && !tIsT:
		pr.bad("arc %q: target %q is no place or transition", a.ID, a.Target)
	case sIsP && tIsT:
		n.Transitions[tt].In = append(n.Transitions[tt].In, Arc{sp, w})
	case sIsT && tIsP:
		n.Transitions[st].Out = append(n.Transitions[st].Out, Arc{tp, w})
	default:
		pr.bad("arc %q joins two places or two transitions (%s → %s)", a.ID, a.Source, a.Target)
	}
}

func dupPlace(pidx map[string]int, id string) bool { _, ok := pidx[id]; return ok }

// netName is the net's <name>, else its id, else the file's base name without extension:
// a run's title never begins with an empty name.
func netName(xn xNet, file string) string {
	if xn.Name != nil && strings.TrimSpace(xn.Name.Text) != "" {
		return strings.TrimSpace(xn.Name.Text)
	}
	if xn.ID != "" {
		return xn.ID
	}
	if file != "" {
		return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	return "net"
}

// trailing reports the line and kind of the first content after the document's root
// element (0 if there is none): comments, processing instructions and white space may
// follow it, nothing else.
func trailing(dec *xml.Decoder) (int, string) {
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if err == io.EOF {
			return 0, ""
		}
		if err != nil {
			return line, fmt.Sprintf("malformed content (%v)", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return line, "element <" + t.Name.Local + ">"
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return line, "text " + input.Excerpt(string(bytes.TrimSpace(t)))
			}
		case xml.EndElement:
			return line, "end tag </" + t.Name.Local + ">"
		case xml.Directive:
			return line, "directive"
		}
	}
}
