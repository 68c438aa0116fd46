package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// referencesText maps the document numbers 000–004 that help texts and output cite to the
// documents (docs/references.md's "References" section says the same; TestReferencesReadme keeps them
// equal).
const referencesText = `The documents clusterperf implements, cited as 000–004 in help and output:

000  Cremonesi & Gennaro (000): P. Cremonesi and C. Gennaro, "Integrated Performance Models
     for SPMD Applications and MIMD Architectures", IEEE Transactions on Parallel and
     Distributed Systems, vol. 13, no. 7, 2002 (reprinted in full with corrected figure
     captions, per the editor's note). SPMD queueing-network speedup models, BUS/CLU × SIO/AIO,
     the BTIO and QCRD case studies.
001  Gennaro (001): C. Gennaro, "Models for SIMD, MIMD and Hybrid Parallel Architectures",
     Ph.D. thesis (Dottorato di Ricerca in Ingegneria Informatica e Automatica, 1995/1998),
     Politecnico di Milano; advisor G. Serazzi. Normalised models, asymptotes, the hybrid
     machine, the pipelined parallel MVA (chapter 6) and the ARGOS/QCRD fits.
002  Anglano (002): C. Anglano, "Predicting Parallel Applications Performance on
     Non-dedicated Cluster Platforms", Proc. 12th ACM International Conference on
     Supercomputing (ICS '98), Melbourne, Australia, July 1998 (Università di Torino). The
     seed text lost its symbols, numbers and author line; the author is from the ICS '98
     proceedings. Timed Petri nets on shared, heterogeneous workstations.
003  Juhász & Charaf (003): S. Juhász and H. Charaf, "Performance Modelling of Cooperating
     Tasks in PC Clusters", Budapest University of Technology and Economics, received July
     11, 2003 (the journal is not named in the seed text). The bottleneck-bandwidth model and
     parallel integer sort.
004  Elliott (004): M. L. Elliott, "Performance Modeling: Using Queueing Network Modeling to
     Analyze the University of San Francisco Keck Cluster Supercomputer", report for CS 698-95
     (Directed Research), Lawrence Livermore National Laboratory, October 10, 2005. Queueing
     models from mpiP profiles of NAS CG.

Errata found in the documents are stated where they matter: in the example files'
comments and the tests that reproduce the documents' numbers.
`

func newReferencesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "references",
		Short: "The documents 000–004 that help and output cite, with full citations",
		Long:  referencesText,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(stdout, referencesText)
			return err
		},
	}
}
