//go:build !unix

package main

import "time"

// cpuTime is not available here: 0.
func cpuTime() time.Duration { return 0 }
