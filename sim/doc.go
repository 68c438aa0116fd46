// Package sim is a discrete-event simulator that checks clusterperf's analytic models:
// queueing networks (closed, open and mixed classes; FCFS, PS, infinite-server and
// multi-server stations; routing by visit counts; general service and inter-arrival
// distributions), a processor-sharing CPU with background streams (the non-dedicated
// workstations of 002), and SPMD programs simulated directly (000/001: processors, bursts,
// synchronisation groups, a contended network, disks). Output analysis: the warm-up chosen
// from the data by MSER-5 (White 1997) on a record of 500 chunks per replication, a run
// length that grows with the population and the visits per cycle (DefaultEvents), a note —
// or, under a precision target, a longer run or fault.ErrNoSteadyState — when a run is too
// short to leave its initial transient; independent replications on all cores, Student-t
// 95 % intervals (internal/stats), stopping at a relative precision in rounds decided by
// the data only. Saturated open networks are refused (fault.ErrSaturated) and growing ones
// found from the data (fault.ErrNoSteadyState); memory and events are estimated and bounded
// before a run (fault.ErrTooLarge). Times are simulated in units of the model's largest mean
// time, so results do not depend on the time unit. Randomness comes from explicit seeds
// (PCG), one stream per replication, so the same seed gives the same numbers on any number
// of cores.
package sim
