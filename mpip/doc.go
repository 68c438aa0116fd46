// Package mpip reads mpiP text reports (LLNL's lightweight MPI profiler, versions 2.x–3.5,
// verbose and concise, single-collector and collective report modes; the format is in
// ../docs/mpip-format.md of the project's shared material) and builds from them the
// queueing model of Elliott's LLNL report (004_1b97ced196bc791e.txt, "004"):
//
//	N = P customers (messages in flight), K = P + 2 centres:
//	switch delay   D_0     = L/BW + Lat                      (delay centre)
//	CPU centres    D_k     = (MPI_Time − MPI_Wait)/(P·M)     (P identical queues, solved once)
//	computation    D_{P+1} = (App_Time − MPI_Time)/M         (delay centre)
//	model wall time AT = R·M/P
//
// with App_Time and MPI_Time the sums over ranks of the report's MPI Time section, MPI_Wait
// the time in the wait operations (WaitOps), M the messages sent and L their mean size.
// Totals always come from the complete "Callsite … statistics" sections, aggregated by MPI
// operation (callsite IDs differ between ranks under address randomisation), never from the
// top-twenty sections.
package mpip
