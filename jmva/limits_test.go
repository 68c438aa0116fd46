package jmva

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// manyAttrs is a model whose <model> element has n distinct attributes (and a repeat of
// the first at the end when dup).
func manyAttrs(n int, dup bool) []byte {
	var b strings.Builder
	b.WriteString("<model")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, ` a%d="1"`, i)
	}
	if dup {
		b.WriteString(` a0="2"`)
	}
	b.WriteString(`><parameters><classes number="1"><closedclass name="c" population="2"/></classes><stations number="1"><listation name="q" servers="1"><servicetimes><servicetime customerclass="c">1</servicetime></servicetimes><visits><visit customerclass="c">1</visit></visits></listation></stations></parameters></model>`)
	return []byte(b.String())
}

// The duplicate-attribute check is linear (issue 32: it compared every pair; 40 000
// attributes on one element took 8.7 s, 150 000 did not finish in 20 s): 150 000
// attributes are refused within two seconds (the duplicate named, or else the unknown
// attributes, at most MaxErrors of them).
func TestManyAttributesLinear(t *testing.T) {
	for _, dup := range []bool{true, false} {
		data := manyAttrs(150000, dup)
		start := time.Now()
		_, err := Read("many.jmva", data)
		el := time.Since(start)
		if !errors.Is(err, fault.ErrInput) || el > 2*time.Second {
			t.Errorf("dup %v: %v after %v", dup, err != nil, el)
		}
		if dup && !strings.Contains(err.Error(), `repeats the attribute a0 ("1", then "2")`) {
			t.Errorf("dup: %.200s", err)
		}
		t.Logf("150 000 attributes (duplicate %v): %v", dup, el)
	}
}

// A refusal quotes at most a short excerpt (issue 32: some JMVA refusals copied up to 52 MB
// of the input into stderr): a 4 MB value, name or what-if list gives a message of at most
// a few hundred bytes.
func TestRefusalExcerpt(t *testing.T) {
	huge := strings.Repeat("x", 4<<20)
	head := `<model><parameters><classes number="1"><closedclass name="c" population="2"/></classes><stations number="1">`
	li := `<listation name="q" servers="1"><servicetimes><servicetime customerclass="c">%s</servicetime></servicetimes><visits><visit customerclass="c">1</visit></visits></listation>`
	tail := `</stations></parameters>%s</model>`
	for name, file := range map[string]string{
		"service time":   head + fmt.Sprintf(li, huge) + fmt.Sprintf(tail, ""),
		"what-if values": head + fmt.Sprintf(li, "1") + fmt.Sprintf(tail, `<whatIf type="Customer Numbers" className="c" values="1;`+huge+`"/>`),
		"duplicate":      strings.Replace(head, `population="2"`, `population="`+huge+`" population="1"`, 1) + fmt.Sprintf(li, "1") + fmt.Sprintf(tail, ""),
		"unknown attr":   strings.Replace(head, `<model>`, `<model `+huge[:1<<20]+`="1">`, 1) + fmt.Sprintf(li, "1") + fmt.Sprintf(tail, ""),
		"class name":     strings.Replace(head, `population="2"`, `population="-1" rate="x`+huge+`"`, 1) + fmt.Sprintf(li, "1") + fmt.Sprintf(tail, ""),
	} {
		_, err := Read("big.jmva", []byte(file))
		if !errors.Is(err, fault.ErrInput) || len(err.Error()) > 600 {
			n := 0
			if err != nil {
				n = len(err.Error())
			}
			t.Errorf("%s: %d bytes of message: %.300v", name, n, err)
		}
	}
}

// BenchmarkReadAtLimit reads a .jmva file of about MaxFileBytes (64 MiB): one station per
// about 300 bytes, 200 000 stations, then refused by nothing — the largest file the reader
// accepts.
func BenchmarkReadAtLimit(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<model><parameters><classes number="1"><closedclass name="c" population="2"/></classes><stations number="%d">` + "\n")
	n := 0
	for ; sb.Len() < MaxFileBytes-400; n++ {
		fmt.Fprintf(&sb, `<listation name="q%d" servers="1"><servicetimes><servicetime customerclass="c">0.001</servicetime></servicetimes><visits><visit customerclass="c">1</visit></visits></listation>`+"\n", n)
	}
	sb.WriteString(`</stations></parameters></model>`)
	data := []byte(strings.Replace(sb.String(), "%d", fmt.Sprint(n), 1))
	if len(data) > MaxFileBytes {
		b.Fatalf("%d bytes", len(data))
	}
	os.WriteFile(b.TempDir()+"/x", nil, 0o644)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read("big.jmva", data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "stations")
}
