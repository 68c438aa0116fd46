package cube

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/mpip"
)

// synthetic is a CUBE4 archive written here (dense index, plain data, 2 processes of one
// thread) with MPI regions: main calls MPI_Send, MPI_Wait and compute. Values per call path
// and location (rank 0, rank 1): time (INCLUSIVE) main 10, 12; MPI_Send 1, 1.5; MPI_Wait 2, 3;
// compute 6, 7 s; visits (EXCLUSIVE) main 1, 1; MPI_Send 100, 100; MPI_Wait 100, 100;
// compute 1, 1; bytes_sent (EXCLUSIVE) MPI_Send 102400, 102400, else 0.
func synthetic(t testing.TB) []byte {
	t.Helper()
	anchor := `<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
 <metrics>
  <metric id="0" type="INCLUSIVE"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric>
  <metric id="1" type="EXCLUSIVE"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom></metric>
  <metric id="2" type="EXCLUSIVE"><disp_name>Bytes sent</disp_name><uniq_name>bytes_sent</uniq_name><dtype>UINT64</dtype><uom>bytes</uom></metric>
 </metrics>
 <program>
  <region id="0" mod="a.c" begin="1" end="9"><name>main</name><paradigm>compiler</paradigm></region>
  <region id="1" mod="" begin="-1" end="-1"><name>MPI_Send</name><paradigm>mpi</paradigm></region>
  <region id="2" mod="" begin="-1" end="-1"><name>MPI_Wait</name><paradigm>mpi</paradigm></region>
  <region id="3" mod="a.c" begin="10" end="20"><name>compute</name><paradigm>compiler</paradigm></region>
  <cnode id="0" calleeId="0"><cnode id="1" calleeId="1"/><cnode id="2" calleeId="2"/><cnode id="3" calleeId="3"/></cnode>
 </program>
 <system>
  <systemtreenode Id="0"><name>machine</name><class>machine</class>
   <locationgroup Id="0"><name>rank 0</name><rank>0</rank><type>process</type><location Id="0"><name>master</name><rank>0</rank><type>thread</type></location></locationgroup>
   <locationgroup Id="1"><name>rank 1</name><rank>1</rank><type>process</type><location Id="1"><name>master</name><rank>0</rank><type>thread</type></location></locationgroup>
  </systemtreenode>
 </system>
</cube>`
	dense := func() []byte {
		b := []byte("CUBEX.INDEX")
		b = binary.LittleEndian.AppendUint32(b, 1)
		b = binary.LittleEndian.AppendUint16(b, 0)
		b = append(b, 0) // dense
		return binary.LittleEndian.AppendUint32(b, 4)
	}
	data := func(vals []float64, double bool) []byte {
		b := []byte("CUBEX.DATA")
		for _, v := range vals {
			if double {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			} else {
				b = binary.LittleEndian.AppendUint64(b, uint64(v))
			}
		}
		return b
	}
	m := map[string][]byte{
		"anchor.xml": []byte(anchor),
		"0.index":    dense(), "0.data": data([]float64{10, 12, 1, 1.5, 2, 3, 6, 7}, true),
		"1.index": dense(), "1.data": data([]float64{1, 1, 100, 100, 100, 100, 1, 1}, false),
		"2.index": dense(), "2.data": data([]float64{0, 0, 102400, 102400, 0, 0, 0, 0}, false),
	}
	return archive(t, []string{"anchor.xml", "0.index", "0.data", "1.index", "1.data", "2.index", "2.data"}, m)
}

// TestMPISummary: the synthetic profile's 004 collected values, each by hand from the values
// above: P = 2; App_Time = 10 + 12 = 22 s; MPI_Time = 1 + 1.5 + 2 + 3 = 7.5 s; MPI_Wait =
// 2 + 3 = 5 s; M = 200 sends of 204800/200 = 1024 bytes; wall time max(10, 12) = 12 s. The
// 004 model solves with them (a 1 µs, 1 GB/s network).
func TestMPISummary(t *testing.T) {
	p, err := Read("synthetic.cubex", bytes.NewReader(synthetic(t)))
	if err != nil {
		t.Fatal(err)
	}
	if p.Layouts["time"] != "dense, plain" {
		t.Errorf("layout %q, want dense, plain", p.Layouts["time"])
	}
	if err := p.CheckTree(); err != nil {
		t.Fatal(err)
	}
	s, paths, err := p.MPI()
	if err != nil {
		t.Fatal(err)
	}
	if s.P != 2 || s.AppTime != 22 || s.MPITime != 7.5 || s.MPIWait != 5 || s.Messages != 200 || s.AvgSize != 1024 || s.WallTime != 12 || len(paths) != 2 {
		t.Fatalf("summary %+v, %d paths", s, len(paths))
	}
	res, err := mpip.Solve(mpip.InputsFrom(s, 1e-6, 1e9))
	if err != nil {
		t.Fatal(err)
	}
	if res.AppTime.Observed != 11 || !(res.R > 0) {
		t.Errorf("004 model: observed App_Time/P %g (want 11), R %g", res.AppTime.Observed, res.R)
	}
	// the mm samples have no MPI: refused
	q, err := ReadFile(filepath.Join("testdata", "single_parameter", "mm.x10y1z1.r1", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := q.MPI(); err == nil {
		t.Error("a profile without MPI regions gave 004 inputs")
	}
}

// TestSyntheticFile: testdata/synthetic-mpi.cubex (the command's golden input) is exactly
// synthetic(); CUBE_WRITE_SYNTHETIC=1 rewrites it.
func TestSyntheticFile(t *testing.T) {
	want := synthetic(t)
	path := filepath.Join("testdata", "synthetic-mpi.cubex")
	if os.Getenv("CUBE_WRITE_SYNTHETIC") == "1" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from synthetic() (%v): rerun with CUBE_WRITE_SYNTHETIC=1", path, err)
	}
}
