//go:build unix

package rusage

import (
	"syscall"
	"time"
)

// PeakRSS returns the peak resident set size of the process in MiB
// (getrusage ru_maxrss, KiB on Linux); 0 if it cannot be read.
func PeakRSS() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

// CPUTime returns the user + system CPU time of the process so far; 0 if
// it cannot be read.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
