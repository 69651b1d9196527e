package bench

import (
	"os"
	"runtime"
	"testing"

	"github.com/collide-go/collide/internal/cputime"
)

// benchWorkload loads the frames workload in the directory named by
// $COLLIDE_BENCH_WORKLOAD (default: the n10 sample) and returns it with the
// registry entry of the algorithm $COLLIDE_BENCH_ALGO (default def).
func benchWorkload(b *testing.B, def string) (*Workload, string, *entry) {
	dir := os.Getenv("COLLIDE_BENCH_WORKLOAD")
	if dir == "" {
		dir = "../testdata/bench-samples/polytopes-mixed-n10-b50-f40-s1"
	}
	algo := os.Getenv("COLLIDE_BENCH_ALGO")
	if algo == "" {
		algo = def
	}
	w, err := Load(dir)
	if err != nil {
		b.Skip(err)
	}
	e := registry[algo]
	if e == nil {
		e = &entry{}
	}
	return w, algo, e
}

// BenchmarkConvexNarrow replays the frames workload in the directory named
// by $COLLIDE_BENCH_WORKLOAD (default: the n10 sample) through the narrow
// algorithm $COLLIDE_BENCH_ALGO (default sepvec), one pass per iteration,
// and reports ns per pair test. Use it with -cpuprofile to profile an
// algorithm on a generated workload.
func BenchmarkConvexNarrow(b *testing.B) {
	w, algo, e := benchWorkload(b, "sepvec")
	if e.narrow == nil {
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

// contactBenchSetup loads the frames workload and the contact algorithm
// (default signed-distance) named by the environment (see benchWorkload).
func contactBenchSetup(b *testing.B) (*frameData, ContactAlgo) {
	w, algo, e := benchWorkload(b, "signed-distance")
	if e.contact == nil {
		b.Fatalf("no contact algorithm %q", algo)
	}
	alg, err := e.contact(w)
	if err != nil {
		b.Fatal(err)
	}
	return prepareFrames(w), alg
}

// BenchmarkContact replays a frames workload through a contact algorithm
// (see contactBenchSetup), one pass per iteration, and reports ns per pair.
// Use it with -cpuprofile to profile an algorithm on a generated workload.
func BenchmarkContact(b *testing.B) {
	fd, alg := contactBenchSetup(b)
	out := make([]ContactAnswer, fd.npair)
	pass := func() {
		alg.Reset()
		contactPass(alg, fd, out)
	}
	timePasses(b, fd.npair, pass)
}

// BenchmarkContactClasses times every pair of a pass on its own (thread
// CPU time less the cost of reading the clock) and
// reports the mean time and share of four classes: apart or overlapping,
// and whether the pair was already tested in the previous frame (its cache
// is warm) or not.
func BenchmarkContactClasses(b *testing.B) {
	fd, alg := contactBenchSetup(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ns, cnt [4]float64
	var out ContactAnswer
	// The cost of reading the clock, subtracted from every pair's time.
	t0 := cputime.Thread()
	for i := 0; i < 1000; i++ {
		cputime.Thread()
	}
	over := (cputime.Thread() - t0) / 1001
	for i := 0; i < b.N; i++ {
		alg.Reset()
		prev := map[Pair]bool{}
		for f, ps := range fd.pairs {
			tf := fd.tf[f]
			cur := make(map[Pair]bool, len(ps))
			for _, p := range ps {
				t0 := cputime.Thread()
				alg.Contact(f, int(p.A), int(p.B), &tf[p.A], &tf[p.B], &out)
				dt := cputime.Thread() - t0 - over
				c := 0
				if out.SD <= 0 {
					c = 2
				}
				if prev[p] {
					c++
				}
				ns[c] += float64(dt)
				cnt[c]++
				cur[p] = true
			}
			prev = cur
		}
	}
	total := cnt[0] + cnt[1] + cnt[2] + cnt[3]
	for c, name := range []string{"apart-new", "apart-warm", "overlap-new", "overlap-warm"} {
		if cnt[c] > 0 {
			b.ReportMetric(ns[c]/cnt[c], name+"-ns")
			b.ReportMetric(100*cnt[c]/total, name+"-%")
		}
	}
}
