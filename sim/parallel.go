package sim

import (
	"runtime"
	"sync"
)

// parallelFor runs f(0…n−1) on all cores.
func parallelFor(n int, f func(i int)) { parallelForN(runtime.GOMAXPROCS(0), n, f) }

// parallelForN runs f(0…n−1) on the given number of goroutines. Callers write results by
// index, so the outcome does not depend on the number of workers or the schedule.
func parallelForN(workers, n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
