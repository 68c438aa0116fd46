package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/examples"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/qn"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the built-in examples: a tour of what clusterperf answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDemo(stdout)
		},
	}
}

func runDemo(w io.Writer) error {
	fmt.Fprintln(w, "== 1. Queueing network: the 004 model of NAS CG class A on the Keck cluster, P = 64 ==")
	fmt.Fprintln(w, "   (examples/keck/cg-a-64.yaml: switch delay, 64 identical CPU queues solved once, compute delay)")
	data, err := examples.FS.ReadFile("keck/cg-a-64.yaml")
	if err != nil {
		return err
	}
	m, name, err := qn.ParseModel("examples/keck/cg-a-64.yaml", data)
	if err != nil {
		return err
	}
	res, err := qn.Solve(m, "auto", qn.AMVAOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", name)
	for _, t := range qn.NewView(name, m, res).Tables() {
		if err := t.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Model wall time AT = R·M/P = %.4g s (004 appendix: 1.613 s; measured 1.578 s)\n\n", res.ResponseTime[0]*269.376e3/64)

	fmt.Fprintln(w, "== 2. How many nodes? The bottleneck model of 003: parallel sort of 2·10⁷ integers ==")
	fmt.Fprintln(w, "   (examples/pipeline/sort.yaml; clusterperf pipeline … --measured sort.csv --plot t.svg)")
	pdata, err := examples.FS.ReadFile("pipeline/sort.yaml")
	if err != nil {
		return err
	}
	pm, _, err := pipeline.ParseModel("examples/pipeline/sort.yaml", pdata)
	if err != nil {
		return err
	}
	pts, err := pm.PredictRange(1, 11)
	if err != nil {
		return err
	}
	for _, pt := range pts {
		flag := ""
		if pt.MemoryExceeded {
			flag = "  (data exceed node memory: paging expected)"
		}
		fmt.Fprintf(w, "   p = %2d: %7.2f s, bottleneck %s%s\n", pt.P, pt.Time, pt.Bottleneck, flag)
	}
	writeOptimum(w, pm.Optimal(pts))
	fmt.Fprintln(w)
	return nil
}
