//go:build !unix

package main

import "time"

// peakRSS is not measured on this platform.
func peakRSS() float64 { return 0 }

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }
