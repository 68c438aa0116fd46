package spec

// Doc is a model file read once (ParseDoc), to be decoded by the decoder of its kind: a
// caller tells a queueing network from an SPMD or a pipeline model by its top-level keys
// (Has) and hands the one tree to qn.DecodeModel, spmd.DecodeModel or pipeline.DecodeModel.
// Outside this module it is modelfile.Doc. A Doc is decoded once: its decoder keeps the
// problems found.
type Doc struct {
	dec  *Decoder
	root Node
}

// ParseDoc reads data as a model file (Parse).
func ParseDoc(file string, data []byte) (*Doc, error) {
	d, root, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	return &Doc{dec: d, root: root}, nil
}

// File is the name the document was read under (the one its errors carry).
func (doc *Doc) File() string { return doc.dec.File }

// Has reports whether the document has the top-level key.
func (doc *Doc) Has(key string) bool { return doc.root.Has(key) }

// Tree returns the decoder and the root mapping of doc, for a format's decoder. A function
// of this internal package, not a method, so that modelfile.Doc shows only File and Has.
func Tree(doc *Doc) (*Decoder, Node) { return doc.dec, doc.root }
