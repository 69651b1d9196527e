package bench

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// SurfaceTOC is the reference answer of one meshpairs query: the first
// time the two surfaces share a point (FORMAT.md Sec. 6 and 8).
type SurfaceTOC struct {
	Hit     bool
	TOC     float64 // upper end of the final bisection interval
	Bracket float64 // width of that interval
	Samples int     // samples of t examined (distance or intersection queries)
}

// RefSamples is the number of sampling steps of the meshpairs reference.
const RefSamples = 2000

// MeshPairsReference answers every query of a motions workload about the
// surfaces (FORMAT.md Sec. 8, meshpairs): it samples t = k/2000 and skips
// a sample only when the exact surface distance at the last tested sample
// (meshquery.Distance) divided by an upper bound of the speed of B's
// points proves that no contact can occur before it, and bisects the
// first sample whose surfaces intersect (meshquery.Intersect) down to
// 1e-15. It shares no code with the continuous algorithms (packages toc
// and screw): poses come from geom.ScrewMotion.PoseAt, the definition of
// the format's motion. Body A must be static.
func MeshPairsReference(w *Workload) ([]SurfaceTOC, error) {
	trees := make([]*meshquery.Tree, len(w.Meshes))
	radius := make([]float64, len(w.Meshes))
	for i, m := range w.Meshes {
		t, err := meshquery.New(m)
		if err != nil {
			return nil, fmt.Errorf("bench: mesh %s: %w", w.MeshNames[i], err)
		}
		trees[i] = t
		for _, v := range m.Verts {
			radius[i] = math.Max(radius[i], v.Norm())
		}
	}
	out := make([]SurfaceTOC, len(w.Queries))
	errs := make([]error, len(w.Queries))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var q meshquery.Scratch
			for i := range next {
				qq := &w.Queries[i]
				out[i], errs[i] = surfaceTOC(&q, trees[qq.MeshA], trees[qq.MeshB], radius[qq.MeshB], qq)
			}
		}()
	}
	for i := range w.Queries {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("bench: query %d: %w", w.Queries[i].ID, err)
		}
	}
	return out, nil
}

// screwSpeedBound returns an upper bound of the speed (per unit of t) of
// any point within radius of B's origin on the screw motion from b0 to
// b1: |d| + θ (ρ + radius), with d the slide along the axis and ρ =
// |o⊥| / (2 sin(θ/2)) the distance of B's origin from the axis.
func screwSpeedBound(b0, b1 geom.Pose, radius float64) float64 {
	dq := b1.Q.Mul(b0.Q.Conj())
	if dq.W < 0 {
		dq = dq.Neg()
	}
	o := b1.P.Sub(b0.P)
	s := dq.Vec().Norm()
	if s == 0 {
		return o.Norm()
	}
	theta := 2 * math.Atan2(s, dq.W)
	u := dq.Vec().Scale(1 / s)
	d := u.Dot(o)
	perp := o.Sub(u.Scale(d)).Norm()
	return (math.Abs(d) + theta*(perp/(2*math.Sin(theta/2))+radius)) * (1 + 1e-12)
}

func surfaceTOC(q *meshquery.Scratch, ta, tb *meshquery.Tree, rb float64, qq *Query) (SurfaceTOC, error) {
	if qq.A0 != qq.A1 {
		return SurfaceTOC{}, fmt.Errorf("body A moves; the reference needs a static A")
	}
	tfA := qq.A0.Transform()
	at := func(t float64) geom.Transform { return geom.ScrewMotion.PoseAt(qq.B0, qq.B1, t).Transform() }
	vmax := screwSpeedBound(qq.B0, qq.B1, rb)
	var r SurfaceTOC
	prev := 0.0
	for k := 0; k <= RefSamples; {
		t := float64(k) / RefSamples
		tf := at(t)
		res, err := q.Distance(ta, &tfA, tb, &tf, nil)
		if err != nil {
			return r, err
		}
		r.Samples++
		if res.Hit {
			r.Hit = true
			if k == 0 {
				return r, nil
			}
			lo, hi := prev, t
			for hi-lo > 1e-15 {
				mid := lo + (hi-lo)/2
				if mid <= lo || mid >= hi {
					break
				}
				tf := at(mid)
				hit, err := q.Intersect(ta, &tfA, tb, &tf)
				if err != nil {
					return r, err
				}
				r.Samples++
				if hit {
					hi = mid
				} else {
					lo = mid
				}
			}
			r.TOC, r.Bracket = hi, hi-lo
			return r, nil
		}
		prev = t
		k2 := k + 1
		if vmax > 0 {
			next := math.Ceil((t + res.Dist/vmax*(1-1e-9)) * RefSamples)
			if next > float64(k2) {
				k2 = int(math.Min(next, RefSamples+1))
			}
		} else {
			k2 = RefSamples + 1 // B does not move
		}
		k = k2
	}
	return r, nil
}
