package explore

import (
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/mpip"
)

// Files are what `clusterperf explore` is given: the model files, and the cluster file of a
// Petri-net program or the network of mpiP reports (--latency, --bandwidth with units).
type Files struct {
	Paths              []string
	Cluster            string
	Latency, Bandwidth string
}

// LoadFiles reads the files with read and loads the model: several files or a network
// given are mpiP reports of one program (LoadMpip), one file is any kind Load detects.
// Errors are classified: a file or option the explorer cannot take is bad input.
func LoadFiles(read func(string) ([]byte, error), f Files) (Model, error) {
	datas := make([][]byte, len(f.Paths))
	for i, p := range f.Paths {
		var err error
		if datas[i], err = read(p); err != nil {
			return nil, err
		}
	}
	var mo MpipOptions
	var err error
	if f.Latency != "" {
		if mo.LatencyS, err = units.Duration(f.Latency); err != nil {
			return nil, app.Inputf("--latency %q: %v", f.Latency, err)
		}
	}
	if f.Bandwidth != "" {
		if mo.BandwidthBytesPerS, err = units.Bandwidth(f.Bandwidth); err != nil {
			return nil, app.Inputf("--bandwidth %q: %v", f.Bandwidth, err)
		}
	}
	if len(f.Paths) > 1 || f.Latency != "" || f.Bandwidth != "" {
		if f.Cluster != "" {
			return nil, app.Inputf("--cluster belongs to a Petri-net program (one file), not to mpiP reports")
		}
		if err := mpip.CheckDistinct(f.Paths, datas); err != nil {
			return nil, app.Input(err)
		}
		m, err := LoadMpip(f.Paths, datas, mo)
		return m, app.Input(err)
	}
	var cdata []byte
	if f.Cluster != "" {
		if cdata, err = read(f.Cluster); err != nil {
			return nil, err
		}
	}
	m, err := Load(f.Paths[0], datas[0], f.Cluster, cdata)
	return m, app.Input(err)
}
