// Package history turns a user's Slurm job accounting (sacct) into scaling studies and
// sizing answers: the jobs one program ran with one input at several task counts are a
// scaling study already paid for.
//
// Reading (ReadSacct, QuerySacct): `sacct --parsable2 --allocations` output, one line per
// job; step lines are skipped. The task count p of a job is its submit line's --ntasks (or
// --nodes × --ntasks-per-node, or an MPI launcher's -n in a --wrap command), else NTasks,
// else the allocated CPUs (Slurm 22.05 leaves NTasks empty on allocation lines).
//
// Studies (Group): jobs with the same program and arguments (the launcher's size options
// removed), the same batch options apart from parallelism and scheduling (--ntasks,
// --nodes, --time, --job-name, --output, …), the same partition and working directory.
// Study.Differs shows what varies.
//
// States: COMPLETED is a run time; TIMEOUT is censored — the run takes longer than its
// limit, a lower bound; CANCELLED, FAILED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE,
// PREEMPTED are left out and counted (they say nothing about the run time); PENDING,
// RUNNING and the like are unfinished.
//
// Fit (FitCensored): package scaling's models and selection with the censored runs as
// one-sided penalties (Tobit-style): Σ_obs ((T(p)−t)/t)² + Σ_cens (min(0, T(p)−L)/L)²,
// minimised by alternating scaling.Fit with the imputed values max(L, T(p)).
//
// Analysis (Analyze): the backtest of the largest completed p from the jobs below it
// (beside ideal-scaling and no-scaling baselines), predictions, the sizing rule of package
// sizing, and each configuration's cost in node-hours, nodes = ⌈p / tasks per node⌉ at the
// densest packing the study's jobs used. Queue wait (Start − Submit) is reported per job
// and as the study's median.
package history
