//go:build !ipopt

package main

// comparison returns nil: without the build tag ipopt only the native
// inner solver runs.
func comparison() *side { return nil }

func ipoptVersion() string { return "" }
