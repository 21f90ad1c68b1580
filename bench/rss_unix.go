//go:build unix

package main

import "syscall"

// peakRSS returns the peak resident set size of the process in MiB
// (getrusage ru_maxrss, KiB on Linux).
func peakRSS() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}
