// Package examples holds the case studies of the source documents as model files, each
// reproducing the document's numbers (see the tests beside them). The files are embedded so
// that `clusterperf demo` runs without a checkout.
package examples

import "embed"

// FS holds every example model file.
//
//go:embed qn/*.yaml keck/*.yaml pipeline/*.yaml pipeline/*.csv spmd/*.yaml mpip/*.mpiP mpip/*.csv scaling/*.csv fit/*.yaml fit/*.csv tpn/*.yaml
var FS embed.FS
