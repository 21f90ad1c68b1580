//go:build !ipopt

package main

// comparison returns nil: without the build tag ipopt only the native
// solver runs.
func comparison() backend { return nil }

func ipoptVersion() string { return "" }
