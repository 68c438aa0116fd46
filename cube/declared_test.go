package cube

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// declaredAnchor is an anchor.xml of one metric, one region, cnodes call paths (flat, under
// one root) and locs locations.
func declaredAnchor(cnodes, locs int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><cube version="4.4"><metrics><metric id="0" type="EXCLUSIVE"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric></metrics><program><region id="0" mod="" begin="1" end="2"><name>main</name></region><cnode id="0" calleeId="0">`)
	for i := 1; i < cnodes; i++ {
		fmt.Fprintf(&b, `<cnode id="%d" calleeId="0"/>`, i)
	}
	b.WriteString(`</cnode></program><system><systemtreenode Id="0"><name>m</name><locationgroup Id="0"><name>r</name><rank>0</rank><type>process</type>`)
	for i := 0; i < locs; i++ {
		fmt.Fprintf(&b, `<location Id="%d"><name>t</name><rank>%d</rank><type>thread</type></location>`, i, i)
	}
	b.WriteString(`</locationgroup></systemtreenode></system></cube>`)
	return b.Bytes()
}

// TestDeclaredCountsBeforeDecoding: an anchor declaring one call path more than MaxCNodes
// is refused before it is decoded — fast and without building the tree (fix6's hostile
// review: 2 M call paths took 7.3 s and 637 MB before the refusal). Bounds: 2 s and 256 MiB
// allocated in total (the 33 MB archive itself is read once; decoding a million cnodes
// allocates several hundred MB).
func TestDeclaredCountsBeforeDecoding(t *testing.T) {
	in := archive(t, []string{"anchor.xml"}, map[string][]byte{"anchor.xml": declaredAnchor(MaxCNodes+1, 1)})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Read("big.cubex", bytes.NewReader(in))
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "big.cubex") || !strings.Contains(err.Error(), "anchor.xml: declares more than 1048576 call paths") {
		t.Fatalf("err = %v", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes refused in %v, %d MB allocated", len(in), took, alloc>>20)
	if took > 2*time.Second || alloc > 256<<20 {
		t.Errorf("refusal took %v and %d MB: want < 2 s and < 256 MB", took, alloc>>20)
	}
}

// TestValuesOfSparseIndexBounded: a sparse index of one row still gets a value per call path
// and location; call paths × locations beyond MaxValues is refused before that allocation
// (4 097 call paths × 4 097 locations = 16 785 409 > 2^24).
func TestValuesOfSparseIndexBounded(t *testing.T) {
	idx := []byte("CUBEX.INDEX")
	idx = binary.LittleEndian.AppendUint32(idx, 1)
	idx = binary.LittleEndian.AppendUint16(idx, 0)
	idx = append(idx, 1) // sparse
	idx = binary.LittleEndian.AppendUint32(idx, 1)
	idx = binary.LittleEndian.AppendUint32(idx, 0)
	data := append([]byte("CUBEX.DATA"), make([]byte, 8*4097)...)
	in := archive(t, []string{"anchor.xml", "0.index", "0.data"}, map[string][]byte{"anchor.xml": declaredAnchor(4097, 4097), "0.index": idx, "0.data": data})
	_, err := Read("wide.cubex", bytes.NewReader(in))
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "wide.cubex") || !strings.Contains(err.Error(), "0.data: 4097 call paths × 4097 locations = 16785409 values, limit 16777216") {
		t.Fatalf("err = %v", err)
	}
}
