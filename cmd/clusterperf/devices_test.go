package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// Every file argument is read by the one input reader (issue 32: /dev/zero or /dev/urandom
// as the model of solve, speedup, fit, mpip, tpn --cluster or as a .pnml passed 1 GiB in
// 2–8 s; a FIFO blocked): each command refuses a device, named as it is or under the
// model's extension, with exit 2 naming the file, within a few seconds; a FIFO without a
// writer is refused as empty at once.
func TestDevicesAndFIFOsRefused(t *testing.T) {
	dir := t.TempDir()
	link := func(dev, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(dev, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zyaml, ucsv := link("/dev/zero", "zero.yaml"), link("/dev/urandom", "random.csv")
	zpnml, zjmva := link("/dev/zero", "zero.pnml"), link("/dev/urandom", "random.jmva")
	zmpip := link("/dev/zero", "zero.mpiP")
	cases := [][]string{
		{"solve", "/dev/zero"},
		{"solve", zyaml},
		{"solve", zjmva},
		{"solve", fifo},
		{"speedup", "/dev/urandom"},
		{"fit", ucsv},
		{"fit", "../../examples/fit/qcrd.yaml", ucsv},
		{"fit", "/dev/zero", "../../examples/fit/qcrd.csv"},
		{"mpip", zmpip, "--latency", "5us", "--bandwidth", "1GB/s"},
		{"tpn", "../../examples/tpn/matmul.yaml", "--cluster", "/dev/zero"},
		{"tpn", zpnml},
		{"pipeline", "/dev/urandom"},
		{"explore", zyaml},
	}
	for _, args := range cases {
		var errb strings.Builder
		start := time.Now()
		code := run(context.Background(), args, io.Discard, &errb)
		el := time.Since(start)
		named := false
		for _, a := range args[1:] {
			named = named || strings.Contains(errb.String(), a) && (a == fifo || a[0] == '/' || strings.Contains(a, "zero") || strings.Contains(a, "random"))
		}
		if code != fault.ExitInput || !named || el > 5*time.Second {
			t.Errorf("%v: exit %d after %v: %.300s", args, code, el, errb.String())
		}
	}
}
