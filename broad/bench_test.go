package broad

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/cputime"
)

var sceneCache = map[int][][]geom.AABB{}

// sceneFrames returns precomputed boxes of a bouncing-bodies scene of n
// bodies (cached between benchmarks).
func sceneFrames(n int) [][]geom.AABB {
	if f, ok := sceneCache[n]; ok {
		return f
	}
	nf := 40
	if n >= 10000 {
		nf = 8
	}
	f := newScene(n, 1000+uint64(n)).run(nf)
	sceneCache[n] = f
	return f
}

// benchPhase times one frame per iteration: every body's box is given to
// the structure and the full pair list produced. Frames play forward then
// backward so motion stays coherent.
func benchPhase(b *testing.B, mk func() Phase, n int) {
	frames := sceneFrames(n)
	s := mk()
	var dst []Pair
	play := func(i int) {
		k := i % (2 * len(frames))
		if k >= len(frames) {
			k = 2*len(frames) - 1 - k
		}
		for id, box := range frames[k] {
			s.Set(id, box)
		}
		dst = s.Pairs(dst[:0])
	}
	for i := 0; i < 2*len(frames); i++ { // warm up
		play(i)
	}
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	t0 := cputime.Thread()
	for i := 0; i < b.N; i++ {
		play(i)
	}
	b.ReportMetric(float64(cputime.Thread()-t0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(dst)), "pairs")
}

func BenchmarkSAP(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchPhase(b, func() Phase { return new(SAP) }, n) })
	}
}

func BenchmarkTree(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchPhase(b, func() Phase { return new(Tree) }, n) })
	}
}

func BenchmarkBrute(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchPhase(b, func() Phase { return new(Brute) }, n) })
	}
}

func BenchmarkSweep(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchPhase(b, func() Phase { return new(Sweep) }, n) })
	}
}
