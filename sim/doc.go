// Package sim is a discrete-event simulator that checks clusterperf's analytic models:
// queueing networks (closed, open and mixed classes; FCFS, PS, infinite-server and
// multi-server stations; routing by visit counts; general service and inter-arrival
// distributions), a processor-sharing CPU with background streams (the non-dedicated
// workstations of 002), and SPMD programs simulated directly (000/001: processors, bursts,
// synchronisation groups, a contended network, disks). Output analysis: warm-up removal,
// independent replications on all cores, Student-t 95 % intervals, stopping at a relative
// precision. Randomness comes from explicit seeds (PCG), one stream per replication, so the
// same seed gives the same numbers.
package sim
