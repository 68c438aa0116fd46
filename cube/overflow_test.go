package cube

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestHugeValuesRefused: testdata/synthetic-mpi.cubex with every double of 0.data set to
// +1e308 or -1e308 (hostile review 8, P1-2, /tmp/h8/c/mk.py's big.cubex and neg.cubex):
// each value is finite, but their sums (inclusive times) overflow to ±Inf, which gave exit 1
// ("a library answered without refusing the input"). Now refused as input, naming the file,
// 0.data and the call path.
func TestHugeValuesRefused(t *testing.T) {
	names, good := members(t, "testdata/synthetic-mpi.cubex")
	if !bytes.HasPrefix(good["0.data"], []byte("CUBEX.DATA")) || (len(good["0.data"])-10)%8 != 0 {
		t.Fatalf("0.data is not a plain CUBEX.DATA of doubles")
	}
	for _, v := range []float64{1e308, -1e308} {
		m := map[string][]byte{}
		for k, b := range good {
			m[k] = b
		}
		d := append([]byte(nil), good["0.data"]...)
		for off := 10; off < len(d); off += 8 {
			binary.LittleEndian.PutUint64(d[off:], math.Float64bits(v))
		}
		m["0.data"] = d
		_, err := Read("big.cubex", bytes.NewReader(archive(t, names, m)))
		if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "big.cubex: 0.data: ") || !strings.Contains(err.Error(), "call path") {
			t.Errorf("%g: got %v, want an input error naming big.cubex: 0.data and the call path", v, err)
		}
	}
}
