package mpipapp

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/netbench"
)

// AddInputs decodes the files read into datas (datas[i] is the content of files[i]) into
// q: a .csv file is Elliott's (004) collected values (mpip.ReadInputs), any other an mpiP
// report (mpip.Parse). The same report given twice is refused (mpip.CheckDistinct).
func (q *Request) AddInputs(files []string, datas [][]byte) error {
	if err := mpip.CheckDistinct(files, datas); err != nil {
		return app.Input(err)
	}
	for i, path := range files {
		b := datas[i]
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			ins, err := mpip.ReadInputs(path, bytes.NewReader(b))
			if err != nil {
				return app.Input(err)
			}
			q.Collected = append(q.Collected, Collected{File: path, Rows: ins})
			continue
		}
		rep, err := mpip.Parse(path, bytes.NewReader(b))
		if err != nil {
			return app.Input(err)
		}
		q.Reports = append(q.Reports, rep)
	}
	return nil
}

// DecodeNetwork is the network of a --network file (mpip.ReadNetwork) read into data.
func DecodeNetwork(path string, data []byte) (*Network, error) {
	net, err := mpip.ReadNetwork(path, bytes.NewReader(data))
	if err != nil {
		return nil, app.Input(err)
	}
	return TableNetwork(path, net), nil
}

// DecodeBenchmarks is the network of OSU or IMB benchmark outputs (netbench.Parse; datas[i]
// the content of files[i]), piecewise or not (BenchmarkNetwork).
func DecodeBenchmarks(files []string, datas [][]byte, piecewise bool) (*Network, error) {
	benches := make([]Benchmark, len(files))
	for i, f := range files {
		t, err := netbench.Parse(f, bytes.NewReader(datas[i]))
		if err != nil {
			return nil, app.Input(err)
		}
		benches[i] = Benchmark{File: f, Table: t}
	}
	return BenchmarkNetwork(benches, piecewise)
}
