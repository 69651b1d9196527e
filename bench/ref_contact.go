package bench

import (
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/refgeom"
	"github.com/collide-go/collide/mesh"
)

// ContactReference returns the reference answer of the contact task
// (FORMAT.md Sec. 8) for two convex polytopes: for intersecting ones
// (separating-axis margin <= 0) the margin as sd and its axis as n (the
// candidate axes are the facet normals of A - B, so -margin is the exact
// depth); for disjoint ones the minimum distance over the vertex-triangle,
// triangle-vertex and edge-edge pairs and the direction of the closest
// points. unique reports whether n is unique in the sense of Sec. 8 (|sd|
// > eps and, for intersecting pairs, no other candidate axis more than
// 1e-6 rad away has a gap within eps of the margin). It is written
// independently of package convex: brute-force supports over the world
// vertices, the Gauss-map arc test for edge pairs, and pairs of features
// pruned only by their bounding spheres.
func ContactReference(ma *mesh.Mesh, ta geom.Transform, mb *mesh.Mesh, tb geom.Transform, eps float64) (sd float64, n geom.Vec3, unique bool) {
	va := transformAll(ma, ta)
	vb := transformAll(mb, tb)
	gap := func(d geom.Vec3) float64 { return gapAlong(va, vb, d) }
	type axis struct {
		n geom.Vec3
		g float64
	}
	var axes []axis
	for f := range ma.Planes {
		d := ta.ApplyDir(ma.Planes[f].N)
		axes = append(axes, axis{d, gap(d)})
	}
	for f := range mb.Planes {
		d := tb.ApplyDir(mb.Planes[f].N).Neg()
		axes = append(axes, axis{d, gap(d)})
	}
	ca := centroid(va)
	for _, ea := range ma.Edges {
		a1, a2 := ta.ApplyDir(ma.Planes[ea.Left].N), ta.ApplyDir(ma.Planes[ea.Right].N)
		da := va[ea.V[1]].Sub(va[ea.V[0]])
		for _, eb := range mb.Edges {
			b1, b2 := tb.ApplyDir(mb.Planes[eb.Left].N).Neg(), tb.ApplyDir(mb.Planes[eb.Right].N).Neg()
			if !arcsCross(a1, a2, b1, b2) {
				continue
			}
			d, ok := da.Cross(vb[eb.V[1]].Sub(vb[eb.V[0]])).Normalize()
			if !ok {
				continue
			}
			if d.Dot(va[ea.V[0]].Sub(ca)) < 0 {
				d = d.Neg()
			}
			axes = append(axes, axis{d, gap(d)})
		}
	}
	best := 0
	for i := range axes {
		if axes[i].g > axes[best].g {
			best = i
		}
	}
	if m := axes[best].g; m <= 0 {
		unique = -m > eps
		for _, x := range axes {
			if x.g >= m-eps && math.Acos(math.Max(-1, math.Min(1, x.n.Dot(axes[best].n)))) > 1e-6 {
				unique = false
			}
		}
		return m, axes[best].n, unique
	}
	// Disjoint: the closest pair of features.
	bd := math.Inf(1)
	var pa, pb geom.Vec3
	try := func(x, y geom.Vec3) {
		if d := x.Sub(y).Norm(); d < bd {
			bd, pa, pb = d, x, y
		}
	}
	trisA, trisB := ma.Triangles(nil), mb.Triangles(nil)
	vertTri := func(vs []geom.Vec3, m *mesh.Mesh, ws []geom.Vec3, tris []mesh.Tri, aSide bool) {
		for _, tr := range tris {
			a, b, c := ws[tr.V[0]], ws[tr.V[1]], ws[tr.V[2]]
			mid := a.Add(b).Add(c).Scale(1.0 / 3)
			r := math.Max(mid.Dist(a), math.Max(mid.Dist(b), mid.Dist(c)))
			for _, v := range vs {
				if v.Dist(mid)-r >= bd {
					continue
				}
				q := refgeom.ClosestOnTriangle(v, a, b, c)
				if aSide {
					try(v, q)
				} else {
					try(q, v)
				}
			}
		}
	}
	vertTri(va, mb, vb, trisB, true)
	vertTri(vb, ma, va, trisA, false)
	for _, ea := range ma.Edges {
		a0, a1 := va[ea.V[0]], va[ea.V[1]]
		ma0, ra := a0.Add(a1).Scale(0.5), a0.Dist(a1)/2
		for _, eb := range mb.Edges {
			b0, b1 := vb[eb.V[0]], vb[eb.V[1]]
			mb0 := b0.Add(b1).Scale(0.5)
			if ma0.Dist(mb0)-ra-b0.Dist(b1)/2 >= bd {
				continue
			}
			_, _, x, y := geom.ClosestSegmentPoints(a0, a1, b0, b1)
			try(x, y)
		}
	}
	n, _ = pb.Sub(pa).Normalize()
	return bd, n, bd > eps
}
