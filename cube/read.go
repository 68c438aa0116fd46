package cube

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Limits, each checked before the memory it bounds is taken.
const (
	// MaxArchiveBytes bounds a .cubex file as read (its tar stream, after gzip if any).
	MaxArchiveBytes = 1 << 30
	// MaxMemberBytes bounds one member of the archive (a metric's data: MaxValues doubles
	// and their headers fit).
	MaxMemberBytes = 256 << 20
	// MaxAnchorBytes bounds anchor.xml after decompression (a compression bomb stops here).
	MaxAnchorBytes = 64 << 20
	// MaxValues bounds the values of one metric, call paths × locations (16 Mi values,
	// 128 MiB as float64).
	MaxValues = 1 << 24
	// MaxCNodes, MaxLocations and MaxMetrics bound the trees of anchor.xml.
	MaxCNodes    = 1 << 20
	MaxLocations = 1 << 20
	MaxMetrics   = 4096
)

// Metric is one metric of the metric tree.
type Metric struct {
	ID       int    `json:"id"`
	Name     string `json:"name"` // uniq_name, e.g. "time", "visits", "bytes_sent"
	Display  string `json:"display_name"`
	Unit     string `json:"unit"` // uom: "sec", "occ", "bytes"
	DType    string `json:"dtype"`
	Kind     string `json:"kind"` // INCLUSIVE or EXCLUSIVE: how the values are stored
	Parent   int    `json:"parent"`
	HasData  bool   `json:"has_data"`
	Unsupped string `json:"not_read,omitempty"` // why its data were not read (unsupported dtype)
}

// Region is a source region (function, loop, MPI call).
type Region struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Module   string `json:"module,omitempty"`
	Paradigm string `json:"paradigm,omitempty"`
	Role     string `json:"role,omitempty"`
}

// CNode is a call path: a region called from its parent call path.
type CNode struct {
	ID       int   `json:"id"`
	Region   int   `json:"region"`
	Parent   int   `json:"parent"` // -1 for a root
	Children []int `json:"children,omitempty"`
}

// Location is a thread (or process) that measured values.
type Location struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Rank        int    `json:"rank"`
	Type        string `json:"type"`
	Process     int    `json:"process"` // its location group's rank
	ProcessName string `json:"process_name"`
}

// Profile is a read .cubex archive.
type Profile struct {
	File      string     `json:"file"`
	Version   string     `json:"version"`
	Metrics   []Metric   `json:"metrics"`
	Regions   []Region   `json:"regions"`
	CNodes    []CNode    `json:"cnodes"` // in order of appearance; ids may be in any order
	Locations []Location `json:"locations"`
	Processes int        `json:"processes"`
	// IndexLayout per metric with data: "sparse" or "dense"; DataLayout: "compressed" or "plain".
	Layouts map[string]string `json:"-"`

	cnodePos  map[int]int
	regionPos map[int]int
	metricPos map[int]int
	values    map[int][]float64 // metric id → [cnode position × L + location position], as stored
}

// inputErr is a refusal naming the archive and its member (and element).
func inputErr(file, member, format string, a ...any) error {
	where := file
	if member != "" {
		where += ": " + member
	}
	return fmt.Errorf("%w: %s: %s", fault.ErrInput, where, fmt.Sprintf(format, a...))
}

func tooLarge(file, member, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s: %s", fault.ErrTooLarge, file, member, fmt.Sprintf(format, a...))
}

// Read reads a CUBE4 .cubex archive (a tar file, or a gzip-compressed tar): anchor.xml
// (plain or gzip), then for each metric <id>.index and <id>.data. Errors wrap
// fault.ErrInput naming the file, the member and the element; fault.ErrTooLarge past a limit.
func Read(file string, r io.Reader) (*Profile, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxArchiveBytes+1))
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, inputErr(file, "", "gzip: %v", err)
		}
		src = io.LimitReader(zr, MaxArchiveBytes+1)
	}
	tr := tar.NewReader(src)
	members := map[string][]byte{}
	var anchor []byte
	total := int64(0)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, inputErr(file, "", "not a complete tar archive (truncated?): %v", err)
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA {
			continue
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Size < 0 || total+h.Size > MaxArchiveBytes {
			return nil, tooLarge(file, name, "%d bytes: the archive's members exceed %d bytes", h.Size, MaxArchiveBytes)
		}
		total += h.Size
		if _, dup := members[name]; dup || (name == "anchor.xml" && anchor != nil) {
			return nil, inputErr(file, name, "appears twice in the archive")
		}
		if !wanted(name) {
			continue
		}
		if h.Size > MaxMemberBytes {
			return nil, tooLarge(file, name, "%d bytes, limit %d per member", h.Size, MaxMemberBytes)
		}
		// read what is there (never allocating what a header merely claims), then compare
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil || int64(len(b)) != h.Size {
			return nil, inputErr(file, name, "truncated: %d of the %d bytes its header says (%v)", len(b), h.Size, err)
		}
		if name == "anchor.xml" {
			anchor = b
		} else {
			members[name] = b
		}
	}
	if anchor == nil {
		return nil, inputErr(file, "anchor.xml", "missing (not a CUBE4 archive, or truncated)")
	}
	p, err := parseAnchor(file, anchor)
	if err != nil {
		return nil, err
	}
	if err := p.readData(file, members); err != nil {
		return nil, err
	}
	return p, nil
}

// wanted: the members Read keeps (anchor.xml and the metrics' index and data files).
func wanted(name string) bool {
	if name == "anchor.xml" {
		return true
	}
	base, ext, ok := strings.Cut(name, ".")
	if !ok || (ext != "index" && ext != "data") {
		return false
	}
	_, err := strconv.Atoi(base)
	return err == nil
}

// inflate decompresses gzip-compressed member b (if it is), refusing more than limit bytes.
func inflate(file, member string, b []byte, limit int) ([]byte, error) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		if len(b) > limit {
			return nil, tooLarge(file, member, "%d bytes, limit %d", len(b), limit)
		}
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, inputErr(file, member, "gzip: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	if err != nil {
		return nil, inputErr(file, member, "gzip: %v (truncated?)", err)
	}
	if len(out) > limit {
		return nil, tooLarge(file, member, "decompresses to more than %d bytes (a compression bomb?)", limit)
	}
	return out, nil
}

// index is a parsed <id>.index.
type index struct {
	order binary.ByteOrder
	rows  []int // cnode id of each data row
	dense bool
}

const indexMagic = "CUBEX.INDEX"

// parseIndex reads CUBEX.INDEX, the endianness check (int32 1), the version (int16), the
// layout (0 dense: every call path in id order; 1 sparse: the cnode ids of the rows) and
// the number of ids (int32), then the ids (int32 each).
func (p *Profile) parseIndex(file, member string, b []byte) (*index, error) {
	if len(b) < len(indexMagic)+11 || string(b[:len(indexMagic)]) != indexMagic {
		return nil, inputErr(file, member, "not a CUBEX.INDEX file (%d bytes)", len(b))
	}
	b = b[len(indexMagic):]
	ix := &index{order: binary.LittleEndian}
	switch binary.LittleEndian.Uint32(b) {
	case 1:
	case 1 << 24:
		ix.order = binary.BigEndian
	default:
		return nil, inputErr(file, member, "endianness check %#x: want 1", binary.LittleEndian.Uint32(b))
	}
	layout := b[6]
	n := int64(int32(ix.order.Uint32(b[7:])))
	ids := b[11:]
	switch layout {
	case 0:
		ix.dense = true
		for _, c := range p.CNodes {
			ix.rows = append(ix.rows, c.ID)
		}
		sort.Ints(ix.rows)
		if len(ids) != 0 {
			return nil, inputErr(file, member, "dense index with %d bytes of ids after its header", len(ids))
		}
		return ix, nil
	case 1:
	default:
		return nil, inputErr(file, member, "index layout %d: want 0 (dense) or 1 (sparse)", layout)
	}
	if n < 0 {
		return nil, inputErr(file, member, "corrupt index: its call-path count field reads %d (negative)", n)
	}
	if n > int64(len(p.CNodes)) {
		return nil, inputErr(file, member, "%d call paths in the index, the anchor has %d", n, len(p.CNodes))
	}
	if int64(len(ids)) != 4*n {
		return nil, inputErr(file, member, "%d bytes of ids for %d call paths: want %d", len(ids), n, 4*n)
	}
	seen := map[int]bool{}
	for i := int64(0); i < n; i++ {
		id := int(int32(ix.order.Uint32(ids[4*i:])))
		if _, ok := p.cnodePos[id]; !ok || seen[id] {
			return nil, inputErr(file, member, "entry %d: call path id %d is not in anchor.xml or repeated", i, id)
		}
		seen[id] = true
		ix.rows = append(ix.rows, id)
	}
	return ix, nil
}

// dtypeSize is the byte size of the supported data types (anchor.xml <dtype>). CUBE stores
// FLOAT as an 8-byte double and INTEGER (signed or unsigned) as 8 bytes.
func dtypeSize(dt string) (int, bool) {
	switch strings.ToUpper(strings.TrimSpace(dt)) {
	case "DOUBLE", "FLOAT", "MINDOUBLE", "MAXDOUBLE", "UINT64", "INT64", "INTEGER", "SIGNED INTEGER", "UNSIGNED INTEGER":
		return 8, true
	case "UINT32", "INT32", "INT", "UNSIGNED INT", "SIGNED INT":
		return 4, true
	case "UINT16", "INT16", "SHORT INT", "SIGNED SHORT INT", "UNSIGNED SHORT INT":
		return 2, true
	case "UINT8", "INT8", "CHAR":
		return 1, true
	}
	return 0, false
}

func decode(dt string, order binary.ByteOrder, b []byte) float64 {
	switch strings.ToUpper(strings.TrimSpace(dt)) {
	case "DOUBLE", "FLOAT", "MINDOUBLE", "MAXDOUBLE":
		return math.Float64frombits(order.Uint64(b))
	case "UINT64", "UNSIGNED INTEGER":
		return float64(order.Uint64(b))
	case "INT64", "INTEGER", "SIGNED INTEGER":
		return float64(int64(order.Uint64(b)))
	case "UINT32", "UNSIGNED INT":
		return float64(order.Uint32(b))
	case "INT32", "INT", "SIGNED INT":
		return float64(int32(order.Uint32(b)))
	case "UINT16", "UNSIGNED SHORT INT":
		return float64(order.Uint16(b))
	case "INT16", "SHORT INT", "SIGNED SHORT INT":
		return float64(int16(order.Uint16(b)))
	case "UINT8", "CHAR":
		return float64(b[0])
	}
	return float64(int8(b[0]))
}

// readData reads every metric's index and data.
func (p *Profile) readData(file string, members map[string][]byte) error {
	p.values = map[int][]float64{}
	p.Layouts = map[string]string{}
	L := len(p.Locations)
	for i := range p.Metrics {
		m := &p.Metrics[i]
		im, dm := fmt.Sprintf("%d.index", m.ID), fmt.Sprintf("%d.data", m.ID)
		ib, iok := members[im]
		db, dok := members[dm]
		if !iok && !dok {
			continue // a metric without measurements (its values are 0)
		}
		if iok != dok {
			return inputErr(file, im, "metric %q (id %d): %s without %s", m.Name, m.ID, map[bool]string{true: im, false: dm}[iok], map[bool]string{true: dm, false: im}[iok])
		}
		size, ok := dtypeSize(m.DType)
		if !ok {
			m.Unsupped = fmt.Sprintf("dtype %s is not read (supported: DOUBLE, FLOAT, MINDOUBLE, MAXDOUBLE and the integer types; not TAU_ATOMIC, RATE, NDOUBLES, COMPLEX, histograms)", m.DType)
			continue
		}
		ix, err := p.parseIndex(file, im, ib)
		if err != nil {
			return err
		}
		if all := int64(len(p.CNodes)) * int64(L); all > MaxValues {
			// a sparse index of few rows still gets a value per call path and location
			return tooLarge(file, dm, "%d call paths × %d locations = %d values, limit %d", len(p.CNodes), L, all, MaxValues)
		}
		n := int64(len(ix.rows)) * int64(L)
		if n > MaxValues {
			return tooLarge(file, dm, "%d call paths × %d locations = %d values, limit %d", len(ix.rows), L, n, MaxValues)
		}
		raw, layout, err := dataRows(file, dm, db, ix, int(n)*size, L*size)
		if err != nil {
			return err
		}
		vals, err := p.decodeRows(file, dm, m, ix, raw, size)
		if err != nil {
			return err
		}
		m.HasData = true
		p.values[m.ID] = vals
		p.Layouts[m.Name] = map[bool]string{true: "dense", false: "sparse"}[ix.dense] + ", " + layout
	}
	return nil
}

// MaxMagnitude bounds Σ|v| over one metric's stored values (about 1.8e302, MaxFloat64/1e6):
// every sum the readers form — inclusive over a subtree, exclusive as inclusive less the
// callees', totals over locations — then stays finite with room for the front ends' scaling
// (percentages, units). Finite values such as ±1e308 each would otherwise add to ±Inf
// (hostile review 8, P1-2).
const MaxMagnitude = math.MaxFloat64 / 1e6

// decodeRows decodes a metric's rows into [cnode position × L + location position],
// refusing a value that is not finite or that takes Σ|v| past MaxMagnitude, naming the data
// member, the call path and the location.
func (p *Profile) decodeRows(file, dm string, m *Metric, ix *index, raw []byte, size int) ([]float64, error) {
	L := len(p.Locations)
	vals := make([]float64, len(p.CNodes)*L)
	total := 0.0
	for r, id := range ix.rows {
		pos := p.cnodePos[id]
		for l := 0; l < L; l++ {
			off := (r*L + l) * size
			v := decode(m.DType, ix.order, raw[off:off+size])
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, inputErr(file, dm, "call path %d, location %d: value %v is not finite", id, p.Locations[l].ID, v)
			}
			if total += math.Abs(v); total > MaxMagnitude {
				return nil, inputErr(file, dm, "metric %q: call path %q, location %d: value %g takes the sum of magnitudes past %.3g, where sums over call paths and locations would overflow", m.Name, p.Path(id), p.Locations[l].ID, v, MaxMagnitude)
			}
			vals[pos*L+l] = v
		}
	}
	return vals, nil
}

// dataRows returns the data file's values, want bytes: CUBEX.DATA followed by the rows, or
// ZCUBEX.DATA, the number of rows (uint64), per row its uncompressed position, compressed
// position and compressed size (uint64 each), then the zlib-compressed rows, each of
// exactly rowBytes when inflated (more is refused before it is written: a bomb).
func dataRows(file, member string, b []byte, ix *index, want, rowBytes int) ([]byte, string, error) {
	const plain, packed = "CUBEX.DATA", "ZCUBEX.DATA"
	switch {
	case bytes.HasPrefix(b, []byte(plain)):
		body := b[len(plain):]
		if len(body) != want {
			return nil, "", inputErr(file, member, "%d bytes of values: want %d (%d call paths × %d bytes per row, per the index and the system tree)", len(body), want, len(ix.rows), rowBytes)
		}
		return body, "plain", nil
	case bytes.HasPrefix(b, []byte(packed)):
	default:
		return nil, "", inputErr(file, member, "not a CUBEX.DATA or ZCUBEX.DATA file")
	}
	body := b[len(packed):]
	if len(body) < 8 {
		return nil, "", inputErr(file, member, "truncated compressed header")
	}
	rows := ix.order.Uint64(body)
	if rows != uint64(len(ix.rows)) {
		return nil, "", inputErr(file, member, "%d compressed rows, the index has %d call paths", rows, len(ix.rows))
	}
	hdr := 8 + 24*int(rows)
	if len(body) < hdr {
		return nil, "", inputErr(file, member, "truncated: %d bytes, its %d row headers need %d", len(body), rows, hdr)
	}
	out := make([]byte, 0, want)
	at := hdr
	var zr io.ReadCloser
	for r := 0; r < int(rows); r++ {
		h := body[8+24*r:]
		unc, csize := ix.order.Uint64(h), ix.order.Uint64(h[16:])
		if unc != uint64(r*rowBytes) {
			return nil, "", inputErr(file, member, "row %d: uncompressed position %d, want %d", r, unc, r*rowBytes)
		}
		if csize > uint64(len(body)-at) {
			return nil, "", inputErr(file, member, "row %d: %d compressed bytes, %d left (truncated?)", r, csize, len(body)-at)
		}
		src := bytes.NewReader(body[at : at+int(csize)])
		var err error
		if zr == nil {
			zr, err = zlib.NewReader(src)
		} else {
			err = zr.(zlib.Resetter).Reset(src, nil) // one inflater for every row
		}
		if err != nil {
			return nil, "", inputErr(file, member, "row %d: zlib: %v", r, err)
		}
		row, err := io.ReadAll(io.LimitReader(zr, int64(rowBytes)+1))
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, "", inputErr(file, member, "row %d: zlib: %v", r, err)
		}
		if len(row) > rowBytes {
			return nil, "", tooLarge(file, member, "row %d inflates beyond its %d bytes (a compression bomb?)", r, rowBytes)
		}
		if len(row) != rowBytes {
			return nil, "", inputErr(file, member, "row %d: %d bytes inflated, want %d", r, len(row), rowBytes)
		}
		out = append(out, row...)
		at += int(csize)
	}
	if at != len(body) {
		return nil, "", inputErr(file, member, "%d bytes after the last compressed row", len(body)-at)
	}
	return out, "compressed", nil
}
