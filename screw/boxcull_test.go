package screw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// corners returns the corners of the local bounding box of m placed by p.
func corners(m *mesh.Mesh, p opose) [8][3]float64 {
	b := m.Bounds()
	var c [8][3]float64
	for i := range c {
		x, y, z := b.Min.X, b.Min.Y, b.Min.Z
		if i&1 != 0 {
			x = b.Max.X
		}
		if i&2 != 0 {
			y = b.Max.Y
		}
		if i&4 != 0 {
			z = b.Max.Z
		}
		c[i] = p.apply([3]float64{x, y, z})
	}
	return c
}

// boxesOverlap is the separating-axis test of two boxes given by their
// corners, projecting all corners on the 15 axes (independent of boxMask).
func boxesOverlap(a, b [8][3]float64) bool {
	axes := func(c [8][3]float64) [3][3]float64 {
		return [3][3]float64{osub(c[1], c[0]), osub(c[2], c[0]), osub(c[4], c[0])}
	}
	ua, ub := axes(a), axes(b)
	var ls [][3]float64
	ls = append(ls, ua[:]...)
	ls = append(ls, ub[:]...)
	for _, x := range ua {
		for _, y := range ub {
			ls = append(ls, ocross(x, y))
		}
	}
	for _, l := range ls {
		if onorm(l) < 1e-9 {
			continue
		}
		amin, amax := math.Inf(1), math.Inf(-1)
		bmin, bmax := math.Inf(1), math.Inf(-1)
		for i := range 8 {
			pa, pb := odot(l, a[i]), odot(l, b[i])
			amin, amax = min(amin, pa), max(amax, pa)
			bmin, bmax = min(bmin, pb), max(bmax, pb)
		}
		if amax < bmin || bmax < amin {
			return false
		}
	}
	return true
}

// TestBoxMask checks the interval mask of the bounding-box culling of small
// meshes against dense sampling of the screw motion (the oracle's own
// motion code): whenever the two bounding boxes overlap at a sampled time,
// the mask has that time's interval.
func TestBoxMask(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	meshes := []*mesh.Mesh{shapes.Cube(1), shapes.Box(geom.Vec3{X: 0.3, Y: 1.2, Z: 2}), shapes.Car()}
	checked := 0
	for it := 0; it < 1500; it++ {
		ma, mb := meshes[r.IntN(len(meshes))], meshes[r.IntN(len(meshes))]
		pa, b0, b1 := randomCase(r, 1, 1)
		if it%7 == 0 { // pure translation
			b1.Q = b0.Q
		}
		d := NewDetector()
		d.noCull = true
		if !d.setup(ma, mb, pa, pa, b0, b1, nil) {
			continue // bounding spheres apart, or no motion
		}
		mask := d.boxMask(0)
		apose, op0, op1 := toO(pa), toO(b0), toO(b1)
		ca := corners(ma, apose)
		for s := 0; s <= 32*cullK; s++ {
			tt := float64(s) / (32 * cullK)
			if !boxesOverlap(ca, corners(mb, screwAt(op0, op1, tt))) {
				continue
			}
			checked++
			k := min(int(tt*cullK), cullK-1)
			ok := mask&(1<<k) != 0
			if s%32 == 0 && k > 0 { // on the boundary of two intervals
				ok = ok || mask&(1<<(k-1)) != 0
			}
			if !ok {
				t.Fatalf("case %d: boxes overlap at t=%v but mask %016b lacks interval %d\npa %v\nb0 %v\nb1 %v", it, tt, mask, k, pa, b0, b1)
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d overlapping samples checked", checked)
	}
}
