// Package tpn simulates timed Petri nets of message-passing programs on non-dedicated,
// heterogeneous clusters, after 002_fed419bf9efe8c73.txt ("002", symbols reconstructed in
// the seeds README).
//
// Semantics (each a documented switch where tools differ; see ../docs of the shared notes):
//   - t-timed, deterministic delays, earliest firing; tokens are taken from the input places
//     when a firing starts and put into the output places when it ends (TokensAtStart, the
//     default; the alternative AtomicFiring keeps them until the end and restarts a firing
//     that lost them).
//   - server semantics per transition: single (default), k, or infinite (messages in flight).
//     An infinite-server transition with no input place would start infinitely many firings
//     at every instant: Validate refuses it (fault.ErrInput).
//   - all completions at one instant are processed before any new firing starts; ties are
//     broken by priority, then declaration order: runs are deterministic.
//   - time is kept exactly in integer ticks of 1 ns (0.1 s + 0.2 s is exactly 0.3 s), up to
//     a horizon of MaxTicks = 2^62 ticks (≈ 4.61e9 s): every delay is converted with a check
//     (Ticks) and every end instant is checked before it is scheduled, so time never wraps;
//     what passes the horizon is refused as input (fault.ErrInput) naming the file and line of
//     the segment (Build) or the transition and its source (Run).
//   - a run ends completed (the final marking is reached), in deadlock (nothing in flight,
//     nothing enabled, marking not final: a report names the blocked transitions, their
//     missing tokens, the processes in the wait-for cycle and the last firings) or cut off by
//     a time or firing limit. The engine's work per firing does not grow with the net or
//     the run: a transition that is not enabled waits on one place it misses tokens in, and
//     only a token put there wakes it (so a shared CPU place with many consumers costs
//     nothing per firing); the final marking is checked by a counter of unmet places; per
//     transition statistics (Result.Stats) give per-process times and the Gantt chart in
//     constant memory. Memory is bounded whatever the firing limit: the log of a
//     recorded run keeps at most max(Options.MaxLog, transitions) firings (beyond, it is
//     dropped: Result.LogDropped), and more than max(Options.MaxInFlight, transitions)
//     firings in progress at once are refused (fault.ErrTooLarge).
//   - shared media (Ethernet-like, 002): a transfer of n bytes on a medium with startup t_s and
//     bandwidth B takes t_s + n·k/B with k the transfers in progress; fixed when it starts
//     (StaticAtStart, counting those started earlier at the same instant) or re-shared at
//     every start and finish (FluidSharing).
//
// Programs (processes of compute / send / recv segments and loops with known counts) are
// turned into nets as 002 §3 describes, each loop a counter-place subnet whose size does not
// depend on its count (loopnet.go; the net's size and the run's firings are estimated first
// and refused beyond BuildOptions' limits with fault.ErrTooLarge); sends are
// non-blocking (002's paradigm) or blocking (the sender waits for the receive); a cluster
// has one network or several, each with its own startup and bandwidth; compute delays are
// t_d(x) = t_d(ref)·ρ_ref/ρ_x (power weights) times the expansion factor 1/(1 − U_x) of the
// workstation's background load (002 eq. for the PS queue).
package tpn
