package spec

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
)

// BenchmarkReadCSVAtLimit reads a CSV table of MaxRows rows through the readers' shared
// engine (ReadCSV: header aliases, every row's fields by key; 17 MB), each row's two numbers
// parsed: the cost under every measured-runs reader (spmd, pipeline, sweep measurements)
// at its row limit.
func BenchmarkReadCSVAtLimit(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("p,time_s\n")
	for i := 0; i < MaxRows; i++ {
		fmt.Fprintf(&buf, "%d,%g\n", 1+i%1024, 1+float64(i)*1e-6)
	}
	data := buf.Bytes()
	aliases := map[string][]string{"p": {"p"}, "time": {"time_s", "time"}}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		err := ReadCSV("big.csv", bytes.NewReader(data), aliases, []string{"p", "time"}, func(r Row) error {
			if _, err := strconv.Atoi(r.Get("p")); err != nil {
				return err
			}
			if _, err := strconv.ParseFloat(r.Get("time"), 64); err != nil {
				return err
			}
			n++
			return nil
		})
		if err != nil || n != MaxRows {
			b.Fatal(n, err)
		}
	}
}
