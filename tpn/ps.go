package tpn

// psJob is one job of a processor-sharing server: on a sampled run's CPU, a compute firing
// or a background job (remain in seconds of the CPU alone); on a fluid medium, a transfer's
// data phase (remain in bytes).
type psJob struct {
	remain float64 // work left: seconds of the CPU alone, or bytes
	tr     int32   // the transition, or −1 for a background job
	id     int32   // the firing's log index (foreground) or a job number (background)
}

// psQueue is a processor-sharing server of rate r work units per second (a CPU: r = 1
// second per second; a fluid medium: r = its bandwidth B bytes/s): each of its k jobs is
// served at r/k (sampled.go's processor-sharing CPU; doc.go's FluidSharing medium, a
// transfer's data at B/k(t), petri-notes.md "dynamic fluid sharing").
// Remaining work is brought up to date lazily, when the job set changes.
type psQueue struct {
	jobs []psJob
	last int64  // ticks: when jobs' remaining work was last brought up to date
	ver  uint32 // version of the pending completion; a later schedule supersedes it
}

// advance serves each of the k jobs rate·(now − last)/k units of work, then sets last = now.
func (q *psQueue) advance(now int64, rate float64) {
	if k := len(q.jobs); k > 0 && now > q.last {
		served := Seconds(now-q.last) * rate / float64(k)
		for j := range q.jobs {
			q.jobs[j].remain -= served
		}
	}
	q.last = now
}

// reschedule supersedes the pending completion (ver++) and returns the job with the least
// remaining work (the first of equals) and the seconds until it completes while the k jobs
// stay: max(remain, 0)·k/rate; ok is false when the server is empty.
func (q *psQueue) reschedule(rate float64) (best int, d float64, ok bool) {
	q.ver++
	if len(q.jobs) == 0 {
		return 0, 0, false
	}
	for j, x := range q.jobs {
		if x.remain < q.jobs[best].remain {
			best = j
		}
	}
	return best, max(q.jobs[best].remain, 0) * float64(len(q.jobs)) / rate, true
}
