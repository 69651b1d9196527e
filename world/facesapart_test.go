package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// samplePolygon returns points spread over face f of m placed by t: a
// grid of barycentric points on each triangle of a fan from the first
// vertex (the faces are convex), every point within res of its nearest.
func samplePolygon(m *mesh.Mesh, f int, t geom.Transform, n int) []geom.Vec3 {
	var out []geom.Vec3
	fv := m.Face(f)
	a := t.Apply(m.Verts[fv[0]])
	for i := 1; i+1 < len(fv); i++ {
		b, c := t.Apply(m.Verts[fv[i]]), t.Apply(m.Verts[fv[i+1]])
		for u := 0; u <= n; u++ {
			for v := 0; u+v <= n; v++ {
				x := a.Scale(float64(n-u-v) / float64(n)).Add(b.Scale(float64(u) / float64(n))).Add(c.Scale(float64(v) / float64(n)))
				out = append(out, x)
			}
		}
	}
	return out
}

// TestFacesApart places two tori near each other at seeded random poses
// and, for every pair of faces whose boxes come within the pad, compares
// facesApart with the distance of the two faces sampled densely (an upper
// bound of the true distance: a pair declared apart must sample farther
// than the pad). A good part of the near pairs must be declared apart
// (linked tori's curved faces: their boxes meet where the faces do not).
func TestFacesApart(t *testing.T) {
	m := shapes.Torus(1, 0.35, 16, 10)
	fa, fb := newFeatures(m), newFeatures(m)
	rng := rand.New(rand.NewPCG(17, 3))
	var p probe
	nearPairs, apart := 0, 0
	for trial := range 12 {
		axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Normalize()
		// B's tube through A's hole, turned a quarter and a bit.
		pb := geom.Pose{P: geom.V(1+0.2*rng.Float64(), 0.1*rng.Float64(), 0.1*rng.Float64()), Q: geom.QuatAxisAngle(geom.V(1, 0, 0), math.Pi/2).Mul(geom.QuatAxisAngle(axis, 0.3*rng.Float64()))}
		rel := pb.Transform().Inverse() // A's frame (the world) to B's
		p.moved = place(p.moved[:0], m.Verts, rel)
		p.rel = rel
		pad := 0.02 + 0.08*rng.Float64()
		n := len(fa.faces.items)
		p.fitCen, p.fitN, p.fitAt = make([]geom.Vec3, n), make([]geom.Vec3, n), make([]uint32, n)
		p.stamp = 1
		for ka, f := range fa.faces.items {
			box := geom.EmptyAABB()
			for _, v := range m.Face(int(f)) {
				box = box.AddPoint(p.moved[v])
			}
			for kb, g := range fb.faces.items {
				if !near(&box, &fb.faces.boxes[kb], pad) {
					continue
				}
				nearPairs++
				if !p.facesApart(fa, fb, int32(ka), int32(kb), pad) {
					continue
				}
				apart++
				sa := samplePolygon(m, int(f), rel, 12)
				sb := samplePolygon(m, int(g), geom.TransformIdentity(), 12)
				d := math.Inf(1)
				for _, x := range sa {
					for _, y := range sb {
						d = math.Min(d, x.Sub(y).Norm())
					}
				}
				if d <= pad {
					t.Fatalf("trial %d: faces %d and %d declared apart by %.4g but sampled %.4g apart", trial, f, g, pad, d)
				}
			}
		}
	}
	t.Logf("%d face pairs with near boxes, %d apart by their planes", nearPairs, apart)
	if nearPairs == 0 || apart*5 < nearPairs || apart*5 > 4*nearPairs {
		t.Fatalf("%d of %d near face pairs apart: want 20-80%%", apart, nearPairs)
	}
}
