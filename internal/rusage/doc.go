// Package rusage reads the resource usage of the running process — its CPU
// time (user + system) and peak resident set size — for the benchmark
// programs (bench, bench/ocp), from getrusage(2) on Unix systems; elsewhere
// both read 0. CPU time, unlike wall time, is not inflated by other load on
// the machine, which is why the benchmarks report it.
package rusage
