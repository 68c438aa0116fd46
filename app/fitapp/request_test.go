package fitapp

import (
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequest: the QCRD example (examples/fit/qcrd.yaml, qcrd.csv) with --bootstrap 0
// and --objective absolute overrides the model file's; --predict 128x8,256 is (128, 8),
// (256, 1); out-of-range options are each named; the data-only form refuses the model
// file's options, and ScalingPredict reads 128:1024:x2 as four counts.
func TestFlagsRequest(t *testing.T) {
	sz := app.DefaultSizingFlags()
	noStudy := func(*app.FlagCheck) bool { return false }
	o := Flags{Predict: "128x8,256", Bootstrap: 0, Objective: "absolute", Sizing: sz}
	var c app.FlagCheck
	configs := o.Check(&c, noStudy)
	if c.Err() != nil || len(configs) != 2 || configs[0] != [2]int{128, 8} || configs[1] != [2]int{256, 1} {
		t.Fatalf("configs %v, %v", configs, c.Err())
	}
	q, err := o.Request(os.ReadFile, "../../examples/fit/qcrd.yaml", "../../examples/fit/qcrd.csv", configs)
	if err != nil || q.Spec.Bootstrap != 0 || q.Spec.Objective != "absolute" || q.Data == nil || len(q.Configs) != 2 {
		t.Fatalf("%+v, %v", q.Spec, err)
	}
	var b app.FlagCheck
	Flags{Predict: "128y", PMax: -1, Bootstrap: MaxBootstrap + 1, Objective: "median", Sizing: sz}.Check(&b, noStudy)
	if !errors.Is(b.Err(), fault.ErrInput) || len(b.Errs) != 4 {
		t.Errorf("got %v, want 4 problems", b.Errs)
	}
	var d app.FlagCheck
	Flags{Bootstrap: -1, Band: true}.CheckData(&d, false)
	if len(d.Errs) != 1 {
		t.Errorf("--band without a model file: %v", d.Errs)
	}
	var s app.FlagCheck
	if ps := (Flags{Predict: "128:1024:x2", Sizing: sz}).ScalingPredict(&s); len(ps) != 4 || s.Err() != nil {
		t.Errorf("ScalingPredict = %v, %v", ps, s.Err())
	}
}
