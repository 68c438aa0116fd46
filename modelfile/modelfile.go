// Package modelfile reads a model file (YAML or JSON) once, so that a program outside this
// module can tell its kind by its top-level keys and decode it with the kind's decoder
// without reading it twice:
//
//	doc, err := modelfile.Parse("m.yaml", data)
//	switch {
//	case doc.Has("stations"):
//		m, name, err := qn.DecodeModel(doc)
//	case doc.Has("architecture"):
//		m, err := spmd.DecodeModel(doc)
//	case doc.Has("sort") || doc.Has("stages"):
//		m, sp, err := pipeline.DecodeModel(doc)
//	}
//
// Every problem names the file and line (an error for which errors.Is(err,
// fault.ErrInput) holds). A program that knows the kind calls the kind's ParseModel.
package modelfile

import "github.com/clusterperf/clusterperf/internal/spec"

// Doc is a model file read by Parse; it is decoded once, by one decoder.
type Doc = spec.Doc

// Parse reads data (at most 1 MiB, one YAML document or JSON value whose top level is a
// mapping) as the model file named file.
func Parse(file string, data []byte) (*Doc, error) { return spec.ParseDoc(file, data) }
