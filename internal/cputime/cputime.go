// Package cputime reads the CPU time of the calling OS thread, so that
// benchmarks and experiments can report times that other processes on a
// shared machine do not inflate. Callers lock their goroutine to its
// thread (runtime.LockOSThread) while they measure.
package cputime
