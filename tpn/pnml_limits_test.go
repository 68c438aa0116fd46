package tpn

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// A device or an endless source named as the .pnml (issue 32: /dev/zero as a .pnml passed
// 1 GiB; a 200 MB PNML ran with a 932 MiB peak) is refused at MaxPNMLBytes while read, in
// well under a second, naming the file.
func TestPNMLDeviceRefused(t *testing.T) {
	dir := t.TempDir()
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		link := filepath.Join(dir, filepath.Base(dev)+".pnml")
		if err := os.Symlink(dev, link); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := ReadPNMLFile(link)
		if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), link) || time.Since(start) > 2*time.Second {
			t.Errorf("%s: %v after %v", dev, err, time.Since(start))
		}
	}
}

// A net without a <name> is named by its id, else by the file (issue 32: a PNML run's title
// began with an empty name, ": finished at …").
func TestPNMLNetName(t *testing.T) {
	dir := t.TempDir()
	const body = `<pnml><net%s type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="pg"><place id="a"><initialMarking><text>1</text></initialMarking></place><place id="b"/><transition id="t"/><arc id="x" source="a" target="t"/><arc id="y" source="t" target="b"/></page></net></pnml>`
	for _, c := range []struct{ attr, want string }{{` id="n7"`, "n7"}, {``, "mynet"}} {
		path := filepath.Join(dir, "mynet.pnml")
		os.WriteFile(path, []byte(fmt.Sprintf(body, c.attr)), 0o644)
		n, err := ReadPNMLFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n.Name != c.want {
			t.Errorf("net%s: name %q, want %q", c.attr, n.Name, c.want)
		}
	}
}

// A refusal quotes at most a short excerpt of the file's text (a 1 MB weight is not copied
// into the message).
func TestPNMLRefusalExcerpt(t *testing.T) {
	huge := strings.Repeat("9", 1<<20)
	doc := `<pnml><net id="n"><page id="pg"><place id="a"/><place id="b"/><transition id="t"/><arc id="x" source="a" target="t"><inscription><text>` + huge + `</text></inscription></arc><arc id="y" source="t" target="b"/></page></net></pnml>`
	_, err := ReadPNML(strings.NewReader(doc))
	if !errors.Is(err, fault.ErrInput) || len(err.Error()) > 300 || !strings.Contains(err.Error(), "…") {
		t.Errorf("%d bytes: %.300s", len(err.Error()), err)
	}
}

// pnmlOfBytes is a valid chain net a → t → b → … of about size bytes.
func pnmlOfBytes(size int) string {
	var b strings.Builder
	b.WriteString(`<pnml><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="pg">` + "\n")
	b.WriteString(`<place id="p0"><initialMarking><text>1</text></initialMarking></place>` + "\n")
	for i := 0; b.Len() < size-200; i++ {
		fmt.Fprintf(&b, "<place id=\"p%d\"/><transition id=\"t%d\"/><arc id=\"a%d\" source=\"p%d\" target=\"t%d\"/><arc id=\"b%d\" source=\"t%d\" target=\"p%d\"/>\n", i+1, i, i, i, i, i, i, i+1)
	}
	b.WriteString("</page></net></pnml>\n")
	return b.String()
}

// BenchmarkReadPNMLAtLimit reads a PNML file of MaxPNMLBytes (16 MiB, a chain of about
// 90 000 transitions) through ReadPNMLFile: the parser at its size limit.
func BenchmarkReadPNMLAtLimit(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.pnml")
	doc := pnmlOfBytes(MaxPNMLBytes)
	os.WriteFile(path, []byte(doc), 0o644)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		n, err := ReadPNMLFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(n.Transitions)), "transitions")
	}
}
