package qn

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/modelfile"
)

// TestForkJoinDefaultNameClash: a fork/join node without a name gets forkjoinN; when a
// station already has that name the file is refused at the node's line (it used to panic:
// the error was recorded at the absent name field).
func TestForkJoinDefaultNameClash(t *testing.T) {
	_, err := ParseModelFile("f.yaml", []byte("classes: [{name: a, population: 2}]\nstations: [{name: forkjoin1, service_time: 1}, {name: b, service_time: 1}]\nfork_joins: [{branches: [b]}]\nrouting: {a: {from: {forkjoin1: {forkjoin1: 1}}}}\n"))
	if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `f.yaml:3: fork_joins[0]: name "forkjoin1" is already a station or fork/join node`) {
		t.Fatalf("got %v", err)
	}
}

// TestDecodeModelOfDoc: a file read once by modelfile.Parse (as a program outside the module
// reads it: DecodeModel's parameter is an exported type) decodes to the model ParseModel
// gives; a kind's decoder is chosen by the document's top-level keys.
func TestDecodeModelOfDoc(t *testing.T) {
	data := []byte("name: one\nclasses: [{name: a, population: 3, think_time: 1}]\nstations: [{name: cpu, demand: 20ms}]\n")
	doc, err := modelfile.Parse("m.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Has("stations") || doc.Has("architecture") || doc.File() != "m.yaml" {
		t.Fatalf("Has/File: %v %v %q", doc.Has("stations"), doc.Has("architecture"), doc.File())
	}
	m, name, err := DecodeModel(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := ParseModel("m.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if name != "one" || m.Classes[0].Population != want.Classes[0].Population || m.Demand[0][0] != 0.02 || want.Demand[0][0] != 0.02 {
		t.Errorf("DecodeModel gave %q %+v, ParseModel %+v", name, m, want)
	}
}
