package fit_test

import (
	"fmt"
	"os"

	"github.com/clusterperf/clusterperf/fit"
)

// Fit an SPMD model to an observed speedup surface (000 §5.2, QCRD stage 2): read the fit
// spec and the measurements, run the fitter, and read the inferred characteristics. The
// surface was generated from 000 Table 4 with 1 % noise; with BUS-AIO, c = 1 and g = 1/p the
// fit recovers Table 4's S_par + S_ser = 0.711 and w·SR_COM = 0.19·0.41 = 0.078 (printed
// rounded: the noise moves the third digit).
func ExampleRun() {
	specYAML, err := os.ReadFile("../examples/fit/qcrd.yaml")
	if err != nil {
		panic(err)
	}
	sp, err := fit.ParseSpec("qcrd.yaml", specYAML)
	if err != nil {
		panic(err)
	}
	f, err := os.Open("../examples/fit/qcrd.csv")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	data, err := fit.ReadData("qcrd.csv", f)
	if err != nil {
		panic(err)
	}
	rep, err := fit.Run(sp, data)
	if err != nil {
		panic(err)
	}
	v := map[string]float64{}
	for _, p := range rep.Best.Parameters {
		v[p.Name] = p.Value
	}
	fmt.Println("best by AICc:", rep.Ranking[0].Name)
	fmt.Printf("S_par + S_ser ≈ %.1f, w·SR_COM ≈ %.2f\n", v["s_par"]+v["s_ser"], v["w"]*v["sr_com"])
	fmt.Printf("average error below 1 %%: %v\n", rep.Best.Metrics.AverageError < 0.01)
	// Output:
	// best by AICc: bus-aio
	// S_par + S_ser ≈ 0.7, w·SR_COM ≈ 0.08
	// average error below 1 %: true
}
