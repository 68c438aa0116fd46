package scaling

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) this test process has used. The timing tests
// bound it rather than wall time: the machine is shared (2 cores, load up to 12 from other
// jobs), so wall time measures the neighbours, while CPU time is the work the fit did.
// Tests in this package do not run in parallel, so the difference is one fit's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
