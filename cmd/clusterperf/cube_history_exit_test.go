package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCubeAndHistoryRefusals: damaged CUBE archives and malformed sacct files exit 2 with the
// file (and member or line) named; nothing is printed on stdout.
func TestCubeAndHistoryRefusals(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../../cube/testdata/single_parameter/mm.x10y1z1.r1/profile.cubex")
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.cubex")
	os.WriteFile(trunc, good[:len(good)/2], 0o644)
	notTar := filepath.Join(dir, "text.cubex")
	os.WriteFile(notTar, []byte("not a tar file\n"), 0o644)
	badSacct := filepath.Join(dir, "jobs.txt")
	os.WriteFile(badSacct, []byte("JobID|State|Elapsed|NCPUS\n1|COMPLETED|00:00:10|4\n2|DONE|00:00:10|4\n"), 0o644)
	noHeader := filepath.Join(dir, "empty.txt")
	os.WriteFile(noHeader, nil, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"cube", trunc}, "trunc.cubex: 6.data: truncated: 0 of the 159 bytes"},
		{[]string{"cube", notTar}, "text.cubex: not a complete tar archive"},
		{[]string{"cube", dir}, "no profile folders"},
		{[]string{"cube", "--values", "1", trunc, notTar}, "--values has 1 values for 2 files"},
		{[]string{"cube", "--latency", "1us", "--bandwidth", "1GB/s", "../../cube/testdata/single_parameter/mm.x10y1z1.r1/profile.cubex"}, "no MPI call paths"},
		{[]string{"cube", "--latency", "1us", "../../cube/testdata/synthetic-mpi.cubex"}, "--latency and --bandwidth go together"},
		{[]string{"history", badSacct}, "jobs.txt:3: State \"DONE\""},
		{[]string{"history", noHeader}, "empty.txt: empty"},
		{[]string{"history", "--since", "yesterday", badSacct}, "--since \"yesterday\""},
		{[]string{"history", "--study", "9", "../../history/testdata/sacct-two-programs.txt"}, "--study 9: the accounting has 3 studies"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(context.Background(), c.args, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 with %q", c.args, code, out.Len(), errb.String(), c.want)
		}
	}
}
