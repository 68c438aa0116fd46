package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/demoapp"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the built-in examples: a tour of what clusterperf answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return demoapp.Run(cmd.Context(), stdout)
		},
	}
}
