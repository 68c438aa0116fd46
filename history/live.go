package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// SacctAvailable reports whether sacct is on PATH.
func SacctAvailable() bool {
	_, err := exec.LookPath("sacct")
	return err == nil
}

// SacctArgs are the arguments of the live query: every user's allocations (root sees all;
// others only their own) in --parsable2 with SacctFormat, filtered by f's user, job name,
// partition and submit window (sacct's -S/-E; without Since, the last 365 days, since sacct
// alone shows only today's jobs).
func SacctArgs(f Filter, now time.Time) []string {
	args := []string{"--parsable2", "--allocations", "--noconvert", "--format=" + SacctFormat}
	since := f.Since
	if since.IsZero() {
		since = now.AddDate(-1, 0, 0)
	}
	args = append(args, "--starttime="+since.Format("2006-01-02T15:04:05"))
	if !f.Until.IsZero() {
		args = append(args, "--endtime="+f.Until.Format("2006-01-02T15:04:05"))
	}
	if f.User != "" {
		args = append(args, "--user="+f.User)
	} else {
		args = append(args, "--allusers")
	}
	if f.Name != "" {
		args = append(args, "--name="+f.Name)
	}
	if f.Partition != "" {
		args = append(args, "--partition="+f.Partition)
	}
	return args
}

// QuerySacct runs sacct with SacctArgs and parses its output (at most MaxBytes, refused
// beyond it as ErrTooLarge); the jobs are then filtered by f (the command substring and
// the exact window, which sacct applies to a job's whole lifetime, not its submit time).
func QuerySacct(ctx context.Context, f Filter) (*Accounting, error) {
	args := SacctArgs(f, time.Now())
	cmd := exec.CommandContext(ctx, "sacct", args...)
	var out limitedBuffer
	var stderr bytes.Buffer
	out.max = MaxBytes + 1
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: sacct: %v", fault.ErrInterrupted, ctx.Err())
		}
		if errors.Is(err, errTooMuch) {
			return nil, fmt.Errorf("%w: sacct printed more than %d bytes: narrow the query (--since, --name, --user)", fault.ErrTooLarge, MaxBytes)
		}
		return nil, fmt.Errorf("%w: sacct %v: %v: %s", fault.ErrInput, args, err, bytes.TrimSpace(stderr.Bytes()))
	}
	a, err := ReadSacct("sacct", bytes.NewReader(out.b.Bytes()))
	if err != nil {
		return nil, err
	}
	a.Jobs = Select(a.Jobs, f)
	return a, nil
}

// Select keeps the jobs f matches, in place: the result shares jobs' array (no second copy
// of up to MaxJobs jobs), whose tail is cleared.
func Select(jobs []Job, f Filter) []Job {
	out := jobs[:0]
	for _, j := range jobs {
		if f.Match(j) {
			out = append(out, j)
		}
	}
	clear(jobs[len(out):])
	return out
}

var errTooMuch = errors.New("output limit reached")

// limitedBuffer fails a write past max bytes (the child then gets EPIPE and exits).
type limitedBuffer struct {
	b   bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.max {
		return 0, errTooMuch
	}
	return l.b.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
