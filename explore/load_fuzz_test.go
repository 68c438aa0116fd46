package explore

import (
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// FuzzLoad reads arbitrary bytes as a model file of each name explore knows (YAML, JSON,
// mpiP report, CSV of collected values): Load refuses it as input (fault.ErrInput, or a
// spec.Error) or returns a model with parameters — never a panic. (Evaluation is FuzzEval's
// and FuzzAPI's.)
func FuzzLoad(f *testing.F) {
	for _, ex := range examples[:6] {
		if b, err := os.ReadFile(ex.file); err == nil {
			f.Add(uint8(0), b)
		}
	}
	f.Add(uint8(1), []byte(`{"classes": [{"name": "c", "population": 3}], "stations": [{"name": "a", "demand": 0.1}]}`))
	f.Add(uint8(2), []byte("@ mpiP\n@ Command : ./a.out\n"))
	f.Add(uint8(3), []byte("label,P,T\n"))
	names := []string{"m.yaml", "m.json", "r.mpiP", "v.csv"}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		m, err := Load(name, data, "", nil)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) && !isSpecError(err) {
				t.Fatalf("%s: not an input error: %v", name, err)
			}
			return
		}
		for _, p := range m.Params() {
			if !(p.Min <= p.Value && p.Value <= p.Max) {
				t.Fatalf("%s: parameter %s = %v outside its range %v … %v", name, p.ID, p.Value, p.Min, p.Max)
			}
		}
	})
}

// isSpecError reports whether err is the model files' reader's refusal (file:line).
func isSpecError(err error) bool {
	var se *spec.Error
	return errors.As(err, &se)
}
