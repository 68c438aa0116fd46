// Package queue holds the closed-form formulas of single queueing stations: M/M/1, M/M/m,
// M/M/∞, M/M/1/K, M/M/m/K, M/G/1 (Pollaczek–Khinchine), Erlang's B and C formulas and the
// heterogeneous-server M/M/m approximation, with the distribution of the response time
// (percentiles) where it has a closed form.
//
// Symbols and units: λ arrival rate (jobs/s), μ service rate of one server (jobs/s, mean
// service time S = 1/μ seconds), m servers, K the most jobs the station holds (in service and
// waiting), a = λ/μ the offered load in Erlangs, ρ = λ/(m·μ) the utilization of one server.
// Q is the mean number of jobs in the station (waiting and in service), R the mean response
// time (waiting plus service, seconds), X the throughput (jobs/s), Little: Q = X·R.
//
// References: L. Kleinrock, Queueing Systems vol. 1 (1975), §3.2–3.7 (M/M/1, M/M/m, M/M/∞,
// M/M/1/K, M/M/m/K), §5.6–5.7 (Pollaczek–Khinchine mean value formula); G. Bolch, S. Greiner,
// H. de Meer, K. Trivedi, Queueing Networks and Markov Chains (2nd ed. 2006), §6.2 and §6.6;
// GNU Octave's queueing package 1.2.7 (qsmm1, qsmmm, qsmminf, qsmm1k, qsmmmk, qsmg1, qsammm,
// erlangb, erlangc), whose conventions the results follow and against which the tests check
// every formula (testdata/octave/queue.m → queue.json).
//
// Every function checks its inputs (λ ≥ 0 and finite, μ > 0 and finite, m ≥ 1, K ≥ m) and
// returns an error wrapping fault.ErrInput naming the parameter and the allowed range; an
// infinite queue with λ ≥ m·μ has no steady state and returns an error wrapping
// fault.ErrSaturated. Work is linear in m (Erlang recursions) or K (finite queues); both are
// limited to MaxStates, beyond which the error wraps fault.ErrTooLarge.
package queue
