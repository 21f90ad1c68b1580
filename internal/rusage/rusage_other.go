//go:build !unix

package rusage

import "time"

// PeakRSS is not measured on this platform.
func PeakRSS() float64 { return 0 }

// CPUTime is not measured on this platform.
func CPUTime() time.Duration { return 0 }
