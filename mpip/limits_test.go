package mpip

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/internal/input"
)

// scaleRanks turns a report of P ranks into one of k·P ranks, rank r + P·j repeating rank r's
// rows: the task assignments, the MPI Time rows and every callsite's rows, with the "*" rows'
// sums (times, counts, bytes) multiplied by k and their maxima, means, minima and
// percentages unchanged — the same program at k times the ranks, each rank behaving alike.
func scaleRanks(tb testing.TB, rep string, p, k int) string {
	tb.Helper()
	var out strings.Builder
	var held []string // the current block's rank rows (or task assignments)
	section := ""
	flushRows := func(rankCol int) {
		for j := 0; j < k; j++ {
			for _, l := range held {
				f := strings.Fields(l)
				r, _ := strconv.Atoi(f[rankCol])
				f[rankCol] = strconv.Itoa(r + p*j)
				out.WriteString(strings.Join(f, " ") + "\n")
			}
		}
		held = held[:0]
	}
	scale := func(l string, cols ...int) string {
		f := strings.Fields(l)
		for _, c := range cols {
			v, err := strconv.ParseFloat(f[c], 64)
			if err != nil {
				tb.Fatalf("%q col %d: %v", l, c, err)
			}
			f[c] = strconv.FormatFloat(v*float64(k), 'g', -1, 64) // exact: a scaled Count must stay whole and equal the rank rows' sum
		}
		return strings.Join(f, " ")
	}
	for _, l := range strings.Split(strings.TrimRight(rep, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "@ MPI Task Assignment"):
			held = append(held, l)
			continue
		case len(held) > 0 && section == "":
			for j := 0; j < k; j++ {
				for _, h := range held {
					name, val, _ := strings.Cut(h, ": ")
					f := strings.Fields(val)
					r, _ := strconv.Atoi(f[0])
					out.WriteString(name + ": " + strconv.Itoa(r+p*j) + " " + strings.Join(f[1:], " ") + "\n")
				}
			}
			held = held[:0]
		}
		if strings.HasPrefix(l, "@--- ") {
			section = l
		}
		f := strings.Fields(l)
		switch {
		case strings.Contains(section, "MPI Time (seconds)") && len(f) == 4 && f[0] != "Task":
			if f[0] == "*" {
				flushRows(0)
				l = scale(l, 1, 2)
			} else {
				held = append(held, l)
				continue
			}
		case strings.Contains(section, "Callsite Time statistics") && len(f) == 9 && f[0] != "Name":
			if f[2] == "*" {
				flushRows(2)
				l = scale(l, 3)
			} else {
				held = append(held, l)
				continue
			}
		case strings.Contains(section, "Callsite Message Sent statistics") && len(f) == 8 && f[0] != "Name":
			if f[2] == "*" {
				flushRows(2)
				l = scale(l, 3, 7)
			} else {
				held = append(held, l)
				continue
			}
		case strings.Contains(section, "Aggregate Time") && len(f) == 6 && f[0] != "Call":
			l = scale(l, 2)
		case strings.Contains(section, "Aggregate Sent Message Size") && len(f) == 6 && f[0] != "Call":
			l = scale(l, 2, 3)
		}
		out.WriteString(l + "\n")
	}
	return out.String()
}

// A report scaled to many ranks reads as the same program: P multiplied, the per-operation
// totals multiplied, the MPI share unchanged (the generator behind BenchmarkParseAtLimit
// makes reports the parser accepts).
func TestScaleRanks(t *testing.T) {
	data := sample(t, "hpc-mpip__driver.8.253.1.mpiP")
	one, err := Parse("driver.8.1.1.mpiP", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	big, err := Parse("driver.80.1.1.mpiP", strings.NewReader(scaleRanks(t, string(data), 8, 10)))
	if err != nil {
		t.Fatal(err)
	}
	if big.Ranks != 10*one.Ranks || len(big.AppTime) != 10*len(one.AppTime) {
		t.Errorf("P %d, %d ranks; want %d", big.Ranks, len(big.AppTime), 10*one.Ranks)
	}
	if r1, r2 := one.TotalMPI/one.TotalApp, big.TotalMPI/big.TotalApp; r2 < r1*0.999 || r2 > r1*1.001 {
		t.Errorf("MPI share %v, want %v", r2, r1)
	}
}

// BenchmarkParseAtLimit parses an mpiP report just under internal/input's limit for any input
// (64 MiB, the largest report a command reads): the driver sample (8 ranks, 9 call sites)
// scaled to the ranks that fill it.
func BenchmarkParseAtLimit(b *testing.B) {
	data := sample(b, "hpc-mpip__driver.8.253.1.mpiP")
	probe := scaleRanks(b, string(data), 8, 10)
	k := int(float64(input.MaxBytes) / float64(len(probe)) * 10 * 0.98)
	rep := scaleRanks(b, string(data), 8, k)
	if len(rep) > input.MaxBytes {
		b.Fatalf("%d bytes, over the limit", len(rep))
	}
	name := fmt.Sprintf("driver.%d.1.1.mpiP", 8*k)
	b.SetBytes(int64(len(rep)))
	for b.Loop() {
		if _, err := Parse(name, strings.NewReader(rep)); err != nil {
			b.Fatal(err)
		}
	}
}
