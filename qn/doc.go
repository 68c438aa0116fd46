// Package qn models and solves product-form queueing networks (QNs).
//
// A Model has classes of customers — closed (a fixed population N_c cycling with think time
// Z_c) or open (Poisson arrivals at rate λ_c) — and stations: single-server queues (FCFS with
// class-independent service, or PS), delay (infinite-server) centres, multi-server queues with
// m identical servers, and load-dependent queues whose service rate with j customers present
// is α(j)/S. A station may stand for Count identical copies (the 004 model's P CPU centres):
// every solver treats a group once, so P identical centres cost O(N), not O(N·P).
//
// Demands D_{c,k} = V_{c,k}·S_{c,k} (seconds per job of class c at one copy of station k)
// carry everything the product-form solvers need.
//
// Solvers and the equations they implement (Lazowska et al., "Quantitative System
// Performance", 1984 = QSP; Bolch et al., "Queueing Networks and Markov Chains" = BGdMT):
//   - MVASingle: exact single-class MVA (QSP ch. 6). Queue and delay stations cost O(N·K);
//     multi-server and load-dependent stations use the marginal-probability recursion
//     (QSP ch. 20, BGdMT §8.2.4) with p(0|n) computed by the cancellation-free ratio
//     p(0|n) = p(0|n−1)·X(n)/X₋ₖ(n), X₋ₖ the throughput of the network without station k
//     (mva.go), instead of the textbook 1 − Σ_{j≥1} p(j|n) which loses all precision.
//   - MVAMulti: exact multi-class MVA (Reiser & Lavenberg 1980) that walks the population
//     lattice one class-1 slice at a time and keeps only two slices (001, ch. 6). With
//     multi-server or load-dependent stations it uses the multi-class marginal-probability
//     recursion with the multi-class form of the same cancellation-free p(0) ratio,
//     p_k(0|n) = p_k(0|n−e_c)·X_c(n)/X₋ₖ,c(n) (mvald.go), checked against a CTMC oracle
//     (internal/ctmc) and Octave's qncmmva.
//   - NormalizingConstant (ln G(N)) and QueueLengthDistribution (P(n_k = j)) from the same
//     recursion.
//   - Schweitzer (Bard–Schweitzer) and Linearizer (Chandy & Neuse 1982) approximate MVA, with
//     multi-server/load-dependent stations by approximate marginals or Seidmann's
//     decomposition (AMVAOptions.MultiServer; errors in docs/multiserver-approx.md).
//   - Solver: a solver as a value (Name, Cost for a model, Exact for a model, Solve); Solvers
//     lists them and Candidates orders them by cost for a model.
//   - Solve: the solver by name, or "auto", which takes the first of Candidates that solves
//     the model, labels every result with its method, Exact
//     and the reason for its choice, attaches an error estimate to approximations, and can
//     refuse to approximate (AMVAOptions.RequireExact).
//   - Comom: exact class-oriented Method of Moments (Casale 2009), whose cost grows with the
//     total population, not the population lattice (comom.go); Integral: numerical
//     integration of the exact integral representation (McKenna & Mitra 1982; approximate,
//     with its error estimate; integral.go).
//   - ForkJoinMVA: approximate fork/join MVA for one closed class (forkjoin.go).
//   - Open: open multi-class networks of M/M/1, M/M/m and IS stations (QSP ch. 6.2).
//   - Mixed: open and closed classes together (QSP ch. 7.4).
//   - ModelFile.Solve: class switching by routing chains (ChainNetwork, chains.go) and finite
//     capacities (SolveBlocking: the CTMC of blocking after service, or MVABLO).
//   - Sweep: one solution per value of a what-if parameter (SweepParam), within a work budget.
//   - AllBounds: asymptotic, balanced job, proportional and geometric bounds (ClosedABA,
//     ClosedBJB, OpenABA, OpenBJB, ProportionalBounds, GeometricBounds; QSP ch. 5), each
//     labelled by its name, with the reasons the others do not apply.
//
// # Zero conventions
//
// One rule for every solver (exact, approximate, open, mixed) and so for every output:
//   - A class with no jobs (closed population 0, or open arrival rate 0) has throughput 0,
//     queue length 0 and utilisation 0 everywhere, and its residence (and response) time at
//     a station is the time ONE job of that class would spend there if it arrived now: the
//     arrival theorem applied to the network as it is (closed: R_{k,c}(N + e_c) seen with the
//     other classes at N, e.g. D·(1 + Q_k(N)) at a queue; open: D/(1 − U) at an M/M/1).
//     It is what a user asking "what would a job of this class see?" wants, and it is
//     finite and positive wherever the class has demand. (Octave's qncmmva returns R = S
//     instead, the time in an empty network.)
//   - A station a class never visits (demand 0) has residence time 0 for that class.
//   - A delay station's residence time is its demand.
//
// # Time scale
//
// Solve divides every time by a power of two near the largest demand or think time and
// multiplies the results back (exact in binary arithmetic), so results do not depend on
// the time unit; a throughput or time that the float64 range cannot hold is refused with
// fault.ErrInput rather than printed as 0 or Inf.
//
// Units are the caller's: if demands are seconds, throughputs are jobs per second.
package qn
