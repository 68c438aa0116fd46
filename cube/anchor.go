package cube

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type xMetric struct {
	ID       string    `xml:"id,attr"`
	Type     string    `xml:"type,attr"`
	Disp     string    `xml:"disp_name"`
	Uniq     string    `xml:"uniq_name"`
	DType    string    `xml:"dtype"`
	UOM      string    `xml:"uom"`
	Children []xMetric `xml:"metric"`
}

type xRegion struct {
	ID       string `xml:"id,attr"`
	Mod      string `xml:"mod,attr"`
	Name     string `xml:"name"`
	Paradigm string `xml:"paradigm"`
	Role     string `xml:"role"`
}

type xCNode struct {
	ID       string   `xml:"id,attr"`
	Callee   string   `xml:"calleeId,attr"`
	Children []xCNode `xml:"cnode"`
}

type xLocation struct {
	ID   string `xml:"Id,attr"`
	Name string `xml:"name"`
	Rank string `xml:"rank"`
	Type string `xml:"type"`
}

type xGroup struct {
	ID        string      `xml:"Id,attr"`
	Name      string      `xml:"name"`
	Rank      string      `xml:"rank"`
	Type      string      `xml:"type"`
	Locations []xLocation `xml:"location"`
}

type xNode struct {
	ID       string   `xml:"Id,attr"`
	Name     string   `xml:"name"`
	Children []xNode  `xml:"systemtreenode"`
	Groups   []xGroup `xml:"locationgroup"`
}

type xCube struct {
	XMLName xml.Name  `xml:"cube"`
	Version string    `xml:"version,attr"`
	Metrics []xMetric `xml:"metrics>metric"`
	Regions []xRegion `xml:"program>region"`
	CNodes  []xCNode  `xml:"program>cnode"`
	System  []xNode   `xml:"system>systemtreenode"`
}

// parseAnchor reads anchor.xml (plain or gzip): the metric tree, the regions, the call tree
// and the system tree's locations. Ids must be integers, unique, and referenced ids must exist.
func parseAnchor(file string, raw []byte) (*Profile, error) {
	const member = "anchor.xml"
	b, err := inflate(file, member, raw, MaxAnchorBytes)
	if err != nil {
		return nil, err
	}
	if err := checkDeclared(file, b); err != nil {
		return nil, err
	}
	var x xCube
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&x); err != nil {
		line, _ := dec.InputPos()
		return nil, inputErr(file, member, "line %d: %v", line, err)
	}
	if !strings.HasPrefix(x.Version, "4.") {
		return nil, inputErr(file, member, "<cube version=%q>: want a CUBE 4.x file", x.Version)
	}
	p := &Profile{File: file, Version: x.Version, cnodePos: map[int]int{}, regionPos: map[int]int{}, metricPos: map[int]int{}}
	if err := p.addMetrics(file, x.Metrics, -1); err != nil {
		return nil, err
	}
	for _, r := range x.Regions {
		id, err := atoi(file, "<region id>", r.ID)
		if err != nil {
			return nil, err
		}
		if _, dup := p.regionPos[id]; dup {
			return nil, inputErr(file, member, "<region id=\"%d\">: repeated", id)
		}
		p.regionPos[id] = len(p.Regions)
		p.Regions = append(p.Regions, Region{ID: id, Name: strings.TrimSpace(r.Name), Module: r.Mod, Paradigm: strings.TrimSpace(r.Paradigm), Role: strings.TrimSpace(r.Role)})
	}
	for _, c := range x.CNodes {
		if err := p.addCNode(file, c, -1, 0); err != nil {
			return nil, err
		}
	}
	if len(p.CNodes) == 0 {
		return nil, inputErr(file, member, "<program> has no <cnode>: no call tree")
	}
	for _, n := range x.System {
		if err := p.addSystem(file, n, 0); err != nil {
			return nil, err
		}
	}
	if len(p.Locations) == 0 {
		return nil, inputErr(file, member, "<system> has no <location>")
	}
	// The values of a row are per location in the order of the location ids, 0 … L−1.
	sort.SliceStable(p.Locations, func(a, b int) bool { return p.Locations[a].ID < p.Locations[b].ID })
	for i, l := range p.Locations {
		if l.ID != i {
			return nil, inputErr(file, member, "<location Id=\"%d\">: location ids must be 0 … %d, each once (the data rows are in their order)", l.ID, len(p.Locations)-1)
		}
	}
	return p, nil
}

// MaxRegions bounds anchor.xml's regions (as many as call paths at most, in practice).
const MaxRegions = MaxCNodes

// checkDeclared counts the elements anchor.xml declares — call paths, regions, locations and
// metrics — by a scan of its bytes before it is decoded, and refuses a file that declares
// more than the limits, so that the decoder never builds what would be refused after
// (fix6's hostile review: 2 M call paths were decoded, 7.3 s and 637 MB, before refusal).
// The counts are upper bounds (a tag in a comment counts too).
func checkDeclared(file string, b []byte) error {
	limits := []struct {
		tag, what string
		max       int
	}{{"cnode", "call paths", MaxCNodes}, {"region", "regions", MaxRegions}, {"location", "locations", MaxLocations}, {"metric", "metrics", MaxMetrics}}
	for _, l := range limits {
		if n := countTags(b, l.tag, l.max); n > l.max {
			return tooLarge(file, "anchor.xml", "declares more than %d %s (<%s> elements), limit %d", l.max, l.what, l.tag, l.max)
		}
	}
	return nil
}

// countTags counts the start tags <tag …> in b, stopping past stop.
func countTags(b []byte, tag string, stop int) int {
	pat := []byte("<" + tag)
	n := 0
	for n <= stop {
		j := bytes.Index(b, pat)
		if j < 0 {
			break
		}
		b = b[j+len(pat):]
		if len(b) > 0 && (b[0] == ' ' || b[0] == '>' || b[0] == '/' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
			n++
		}
	}
	return n
}

func atoi(file, what, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > 1<<31-1 {
		return 0, inputErr(file, "anchor.xml", "%s %q: want a non-negative integer", what, v)
	}
	return n, nil
}

// maxDepth bounds the nesting of the trees (call paths deeper than this are not real).
const maxDepth = 2000

func (p *Profile) addMetrics(file string, ms []xMetric, parent int) error {
	for _, m := range ms {
		if len(p.Metrics) >= MaxMetrics {
			return tooLarge(file, "anchor.xml", "more than %d metrics", MaxMetrics)
		}
		id, err := atoi(file, "<metric id>", m.ID)
		if err != nil {
			return err
		}
		if _, dup := p.metricPos[id]; dup {
			return inputErr(file, "anchor.xml", "<metric id=\"%d\">: repeated", id)
		}
		kind := strings.ToUpper(strings.TrimSpace(m.Type))
		if kind == "" {
			kind = "INCLUSIVE" // CUBE's default metric type
		}
		if kind != "INCLUSIVE" && kind != "EXCLUSIVE" && kind != "SIMPLE" && kind != "PREDERIVED_INCLUSIVE" && kind != "PREDERIVED_EXCLUSIVE" && kind != "POSTDERIVED" {
			return inputErr(file, "anchor.xml", "<metric id=\"%d\" type=%q>: want INCLUSIVE or EXCLUSIVE", id, m.Type)
		}
		p.metricPos[id] = len(p.Metrics)
		p.Metrics = append(p.Metrics, Metric{ID: id, Name: strings.TrimSpace(m.Uniq), Display: strings.TrimSpace(m.Disp), Unit: strings.TrimSpace(m.UOM), DType: strings.TrimSpace(m.DType), Kind: kind, Parent: parent})
		if err := p.addMetrics(file, m.Children, id); err != nil {
			return err
		}
	}
	return nil
}

func (p *Profile) addCNode(file string, c xCNode, parent, depth int) error {
	if depth > maxDepth {
		return tooLarge(file, "anchor.xml", "<cnode id=%q>: call tree deeper than %d", c.ID, maxDepth)
	}
	if len(p.CNodes) >= MaxCNodes {
		return tooLarge(file, "anchor.xml", "more than %d call paths", MaxCNodes)
	}
	id, err := atoi(file, "<cnode id>", c.ID)
	if err != nil {
		return err
	}
	reg, err := atoi(file, fmt.Sprintf("<cnode id=\"%d\" calleeId>", id), c.Callee)
	if err != nil {
		return err
	}
	if _, ok := p.regionPos[reg]; !ok {
		return inputErr(file, "anchor.xml", "<cnode id=\"%d\" calleeId=\"%d\">: no region %d", id, reg, reg)
	}
	if _, dup := p.cnodePos[id]; dup {
		return inputErr(file, "anchor.xml", "<cnode id=\"%d\">: repeated", id)
	}
	pos := len(p.CNodes)
	p.cnodePos[id] = pos
	p.CNodes = append(p.CNodes, CNode{ID: id, Region: reg, Parent: parent})
	if parent >= 0 {
		pp := p.cnodePos[parent]
		p.CNodes[pp].Children = append(p.CNodes[pp].Children, id)
	}
	for _, ch := range c.Children {
		if err := p.addCNode(file, ch, id, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (p *Profile) addSystem(file string, n xNode, depth int) error {
	if depth > maxDepth {
		return tooLarge(file, "anchor.xml", "<systemtreenode Id=%q>: deeper than %d", n.ID, maxDepth)
	}
	for _, g := range n.Groups {
		rank, err := atoi(file, fmt.Sprintf("<locationgroup Id=%q> <rank>", g.ID), g.Rank)
		if err != nil {
			return err
		}
		p.Processes++
		for _, l := range g.Locations {
			if len(p.Locations) >= MaxLocations {
				return tooLarge(file, "anchor.xml", "more than %d locations", MaxLocations)
			}
			id, err := atoi(file, "<location Id>", l.ID)
			if err != nil {
				return err
			}
			lr, err := atoi(file, fmt.Sprintf("<location Id=\"%d\"> <rank>", id), l.Rank)
			if err != nil {
				return err
			}
			p.Locations = append(p.Locations, Location{ID: id, Name: strings.TrimSpace(l.Name), Rank: lr, Type: strings.TrimSpace(l.Type), Process: rank, ProcessName: strings.TrimSpace(g.Name)})
		}
	}
	for _, c := range n.Children {
		if err := p.addSystem(file, c, depth+1); err != nil {
			return err
		}
	}
	return nil
}
