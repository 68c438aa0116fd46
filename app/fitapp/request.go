package fitapp

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// Flags are the fit command's options as given: the configurations to predict (p x d pairs
// with a model file, process counts in the range syntax without one), the sizing range and
// rule, and the model-file form's cross-validation, bootstrap (-1: the model file's),
// contention band and objective ("": the model file's).
type Flags struct {
	Predict    string
	PMax, DMax int
	Sizing     app.SizingFlags
	LOO        bool
	Bootstrap  int
	Band       bool
	Objective  string
}

// MaxBootstrap bounds --bootstrap: each replicate refits every model with its multi-start
// (tens of milliseconds here), so 10 000 replicates are minutes of work.
const MaxBootstrap = 10000

// Check records the problems of the model-file form's options in c (study: the sharding
// options' problems, in their place) and returns the configurations to predict.
func (o Flags) Check(c *app.FlagCheck, study func(*app.FlagCheck) bool) [][2]int {
	c.ZeroOrAtLeast("pmax", int64(o.PMax), 1, "twice the largest measured p")
	c.ZeroOrAtLeast("dmax", int64(o.DMax), 1, "the largest measured d")
	if int64(max(o.PMax, 1))*int64(max(o.DMax, 1)) > sizing.MaxPoints {
		c.Add("--pmax %d × --dmax %d is more than %d points (the sizing limit)", o.PMax, o.DMax, sizing.MaxPoints)
	}
	o.Sizing.Check(c)
	if o.Bootstrap < -1 || o.Bootstrap > MaxBootstrap {
		c.Add("--bootstrap %d: want 0 … %d replicates (-1: the model file's); each replicate refits every candidate from its optimum", o.Bootstrap, MaxBootstrap)
	}
	if o.Objective != "" && !slices.Contains(fit.Objectives(), o.Objective) {
		c.Add("--objective %q: allowed %s", o.Objective, strings.Join(fit.Objectives(), ", "))
	}
	study(c)
	if o.Predict == "" {
		return nil
	}
	configs, err := ParseConfigs(o.Predict)
	if err != nil {
		c.Errs = append(c.Errs, err)
	}
	return configs
}

// ParseConfigs reads --predict's p x d pairs ("128x8,256x16"; a bare p has d = 1).
func ParseConfigs(s string) ([][2]int, error) {
	var out [][2]int
	for _, item := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), "x")
		if !ok {
			b = "1"
		}
		p, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || p < 1 || d < 1 {
			return nil, fmt.Errorf("--predict %q: want p x d pairs such as 128x8,256x16", s)
		}
		out = append(out, [2]int{p, d})
	}
	return out, nil
}

// Request reads the model file and the data with read, applies --bootstrap and --objective
// to the model file's spec and builds the request for the checked configurations.
func (o Flags) Request(read func(string) ([]byte, error), modelPath, dataPath string, configs [][2]int) (Request, error) {
	mb, err := read(modelPath)
	if err != nil {
		return Request{}, err
	}
	sp, err := fit.ParseSpec(modelPath, mb)
	if err != nil {
		return Request{}, app.Input(err)
	}
	db, err := read(dataPath)
	if err != nil {
		return Request{}, err
	}
	data, err := fit.ReadData(dataPath, bytes.NewReader(db))
	if err != nil {
		return Request{}, app.Input(err)
	}
	if o.Bootstrap >= 0 {
		sp.Bootstrap = o.Bootstrap
	}
	if o.Objective != "" {
		sp.Objective = o.Objective
	}
	return Request{Spec: sp, Data: data, DataPath: dataPath, Configs: configs, PMax: o.PMax, DMax: o.DMax,
		Sizing: o.Sizing.Options(nil), LOO: o.LOO, Band: o.Band}, nil
}

// CheckData records the problems of `fit DATA.csv`'s options in c: the model-file form's
// options (study: a sharded study asked for) are refused.
func (o Flags) CheckData(c *app.FlagCheck, study bool) {
	if o.DMax != 0 || o.LOO || o.Bootstrap != -1 || o.Band || o.Objective != "" || study {
		c.Add("--dmax, --loo, --bootstrap, --band, --objective, --shard and --slurm need a model file: fit MODEL.yaml DATA.csv")
	}
}

// ScalingPredict records the problems of a plain p,time CSV's options in c and returns the
// process counts to predict.
func (o Flags) ScalingPredict(c *app.FlagCheck) []int {
	o.Sizing.Check(c)
	var ps []int
	if o.Predict != "" {
		ps = c.Range("predict", o.Predict, ranges.Limits{Min: 1, Max: scaling.MaxPredictP, MaxCount: app.MaxPredictions})
	}
	if o.PMax < 0 || o.PMax > scaling.MaxPredictP {
		c.Add("--pmax %d: allowed 0 (twice the largest measured p) or 1 … 2^30", o.PMax)
	}
	return ps
}
