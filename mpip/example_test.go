package mpip_test

import (
	"fmt"
	"os"

	"github.com/clusterperf/clusterperf/mpip"
)

// Parse an mpiP report (mpip/testdata/samples, from the hpc-mpip repository; format in
// docs mpip-format.md) and read its totals: the "*" row of "MPI Time (seconds)" gives
// AppTime 163 s and MPITime 118 s over 8 ranks (the file's MPI% 72.44 is of the unrounded
// times; 118/163 = 72.39 %), and the callsite statistics the time per MPI operation, Σ
// count × mean over the "*" rows (Wait: 5.4e4 + 1.58e4 ms in the Aggregate Time section).
func ExampleParse() {
	f, err := os.Open("testdata/samples/hpc-mpip__driver.8.253.1.mpiP")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	r, err := mpip.Parse("driver.8.253.1.mpiP", f)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s on %d ranks: app %g s, MPI %g s (%.2f %%)\n", r.Command, r.Ranks, r.TotalApp, r.TotalMPI, 100*r.TotalMPI/r.TotalApp)
	for _, name := range r.OpNames() {
		op := r.Ops[name]
		fmt.Printf("%-10s %d sites %8.4g ms\n", name, op.Sites, op.TimeMS)
	}
	// Output:
	// ./driver on 8 ranks: app 163 s, MPI 118 s (72.39 %)
	// Wait       2 sites 6.979e+04 ms
	// Barrier    2 sites 2.294e+04 ms
	// Reduce     1 sites     7495 ms
	// Allreduce  2 sites     6242 ms
	// Isend      1 sites     5867 ms
	// Irecv      1 sites     5720 ms
}
