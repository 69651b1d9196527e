package bench

import (
	"os"
	"runtime"
	"testing"

	"github.com/collide-go/collide/internal/cputime"
)

// BenchmarkConvexNarrow replays the frames workload in the directory named
// by $COLLIDE_BENCH_WORKLOAD (default: the n10 sample) through the narrow
// algorithm $COLLIDE_BENCH_ALGO (default sepvec), one pass per iteration,
// and reports ns per pair test. Use it with -cpuprofile to profile an
// algorithm on a generated workload.
func BenchmarkConvexNarrow(b *testing.B) {
	dir := os.Getenv("COLLIDE_BENCH_WORKLOAD")
	if dir == "" {
		dir = "../testdata/bench-samples/polytopes-mixed-n10-b50-f40-s1"
	}
	algo := os.Getenv("COLLIDE_BENCH_ALGO")
	if algo == "" {
		algo = "sepvec"
	}
	w, err := Load(dir)
	if err != nil {
		b.Skip(err)
	}
	e := registry[algo]
	if e == nil || e.narrow == nil {
		b.Fatalf("no narrow algorithm %q", algo)
	}
	fd := prepareFrames(w)
	alg, err := e.narrow(w)
	if err != nil {
		b.Fatal(err)
	}
	hits := make([]bool, fd.npair)
	pass := func() {
		alg.Reset()
		narrowPass(alg, fd, hits)
	}
	timePasses(b, fd.npair, pass)
}

// timePasses runs pass once untimed and b.N times timed on a locked
// thread, and reports the wall and thread CPU time per query (npair
// queries per pass).
func timePasses(b *testing.B, npair int, pass func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pass()
	b.ResetTimer()
	c0 := cputime.Thread()
	for i := 0; i < b.N; i++ {
		pass()
	}
	c1 := cputime.Thread()
	q := float64(b.N * npair)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/q, "ns/query")
	// Thread CPU time: less disturbed by other processes on a shared machine.
	b.ReportMetric(float64(c1-c0)/q, "cpu-ns/query")
}
