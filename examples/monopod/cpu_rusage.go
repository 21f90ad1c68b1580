//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "syscall"

// processCPU returns the CPU time (user + system) of this process so far
// in seconds, or 0 where the platform does not report it.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + 1e-6*float64(t.Usec) }
	return sec(ru.Utime) + sec(ru.Stime)
}
