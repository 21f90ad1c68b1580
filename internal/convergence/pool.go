package convergence

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"
)

// Pool runs the jobs of a study in parallel.
type Pool[J, R any] struct {
	// Workers is the number of goroutines (less than 1: one).
	Workers int
	// Cost estimates the work of a job; the costliest are started first
	// (ties in the order given). nil: in the order given.
	Cost func(J) int
	// Progress, if not nil, receives a line that rewrites itself ("\r")
	// after every job: jobs done, seconds since the start and Label of
	// the last job; a newline ends it.
	Progress io.Writer
	// Label describes a finished job and its result (nil: nothing).
	Label func(J, R) string
}

// Run calls do on every job and returns the results in the order of jobs
// and the wall time. Once ctx is cancelled no job is started; Run then
// waits for the running ones and returns ctx's error.
func (p Pool[J, R]) Run(ctx context.Context, jobs []J, do func(context.Context, J) R) ([]R, time.Duration, error) {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	if p.Cost != nil {
		sort.SliceStable(order, func(a, b int) bool { return p.Cost(jobs[order[a]]) > p.Cost(jobs[order[b]]) })
	}
	results := make([]R, len(jobs))
	var mu sync.Mutex
	queue := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	done := 0
	for range max(p.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queue {
				r := do(ctx, jobs[i])
				mu.Lock()
				results[i] = r
				done++
				if p.Progress != nil {
					label := ""
					if p.Label != nil {
						label = p.Label(jobs[i], r)
					}
					fmt.Fprintf(p.Progress, "\r[%3d/%3d] %6.0f s  last: %s      ", done, len(jobs), time.Since(start).Seconds(), label)
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		queue <- i
	}
	close(queue)
	wg.Wait()
	if p.Progress != nil {
		fmt.Fprintln(p.Progress)
	}
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, elapsed, err
	}
	return results, elapsed, nil
}

// ErrorText is an error for a progress line: "%.2e", or "failed" for nil.
func ErrorText(e *float64) string {
	if e == nil {
		return "failed"
	}
	return fmt.Sprintf("%.2e", *e)
}
