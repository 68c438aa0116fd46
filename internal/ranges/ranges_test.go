package ranges

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Expected values written out by hand from the syntax in the package doc.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"8", []int{8}},
		{"1,2,4,8", []int{1, 2, 4, 8}},
		{"1:5", []int{1, 2, 3, 4, 5}},
		{"4:20:4", []int{4, 8, 12, 16, 20}},
		{"4:21:4", []int{4, 8, 12, 16, 20}},
		{"1:1024:x2", []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
		{"3:100:x3", []int{3, 9, 27, 81}},
		{"1:4,16:64:x2, 2", []int{1, 2, 3, 4, 16, 32, 64}},
		{"1e3", []int{1000}},
		{"8,4,8", []int{4, 8}},
		{"1073741823:1073741824", []int{1073741823, 1073741824}},
		{"536870912:1073741824:x2", []int{536870912, 1073741824}},
	} {
		got, err := Parse("--p", c.in, Limits{})
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, got, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind error
		frag string
	}{
		{"", fault.ErrInput, "empty"},
		{"0", fault.ErrInput, "0 is out of range; allowed 1 … 1073741824"},
		{"-1", fault.ErrInput, "out of range"},
		{"1.5", fault.ErrInput, "not a whole number"},
		{"8:4", fault.ErrInput, "TO = 4 is less than FROM = 8"},
		{"1:8:0", fault.ErrInput, "step \"0\""},
		{"1:8:x1", fault.ErrInput, "factor \"x1\""},
		{"1:8:y2", fault.ErrInput, "step \"y2\""},
		{"1:2:3:4", fault.ErrInput, "is not N"},
		{"1,,2", fault.ErrInput, "is not N"},
		{"NaN", fault.ErrInput, "not a whole number"},
		{"inf", fault.ErrInput, "not a whole number"},
		{"0x10", fault.ErrInput, "not a whole number"},
		{"1e300", fault.ErrInput, "out of range"},
		{"1:100000000", fault.ErrTooLarge, "the limit is 1000000"},
		{"1:1000000,1:1000000", fault.ErrTooLarge, "the limit is 1000000"},
		{strings.Repeat("1,", 3000), fault.ErrInput, "longer than 4096"},
	} {
		_, err := Parse("--p", c.in, Limits{})
		if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.frag) || !strings.Contains(err.Error(), "--p") {
			t.Errorf("%q: %v, want %v with %q", c.in, err, c.kind, c.frag)
		}
	}
	// found by FuzzParse: 0·K^i never passes TO (an endless loop before the FROM ≥ 1 rule)
	if _, err := Parse("--population", "0:8:x2", Limits{Min: 0, Max: 100, MaxCount: 10}); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "need FROM ≥ 1") {
		t.Errorf("0:8:x2: %v", err)
	}
	if _, err := Parse("--population", "1:100", Limits{Min: 1, Max: 50, MaxCount: 10}); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "allowed 1 … 50") {
		t.Errorf("custom limits: %v", err)
	}
}

// Any text: an error of the two kinds, or a sorted, distinct list within the limits whose
// length is at most MaxCount.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1,2,4,8", "1:1024:x2", "4:64:4", "1e3", "1:9e18", "9:1:x2", ":", "1:2:x"} {
		f.Add(s, 1, 1<<20, 1000)
	}
	f.Fuzz(func(t *testing.T, s string, lo, hi, maxCount int) {
		lim := Limits{Min: lo % 1000, Max: hi, MaxCount: maxCount % 100000}
		got, err := Parse("--x", s, lim)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("%q: not an input error: %v", s, err)
			}
			return
		}
		l := lim.orDefault()
		if len(got) == 0 || len(got) > l.MaxCount {
			t.Fatalf("%q: %d values", s, len(got))
		}
		for i, v := range got {
			if v < l.Min || v > l.Max || (i > 0 && v <= got[i-1]) {
				t.Fatalf("%q: %v", s, got)
			}
		}
	})
}
