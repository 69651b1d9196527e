package convex_test

import (
	"fmt"

	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// Two unit cubes, 1.5 apart along x, then moved to overlap: the search
// returns a separating plane, then intersecting; the cache carries the
// separating vector from the first call to the second.
func ExampleSearcher_Intersect() {
	a, err := convex.New(shapes.Cube(1))
	if err != nil {
		panic(err)
	}
	b, _ := convex.New(shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.Vec3{X: 1.5, Y: 0.2}, Q: geom.QuatIdentity()}.Transform()
	var s convex.Searcher
	var cache convex.Cache
	r := s.Intersect(a, &ta, b, &tb, &cache)
	fmt.Printf("%v after %d iteration(s), gap %.2f, plane normal (%.2f, %.2f, %.2f)\n", r.Status, r.Iterations, r.Gap, r.Plane.N.X, r.Plane.N.Y, r.Plane.N.Z)
	tb.T.X = 0.9
	r = s.Intersect(a, &ta, b, &tb, &cache)
	fmt.Println(r.Status)
	// Output:
	// separated after 1 iteration(s), gap 0.39, plane normal (0.99, 0.13, 0.00)
	// intersecting
}

// GJK gives the distance and the closest points.
func ExampleGJK() {
	a, _ := convex.New(shapes.Cube(1))
	b, _ := convex.New(shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.Vec3{X: 3, Y: 0.25}, Q: geom.QuatIdentity()}.Transform()
	r := convex.GJK(a, &ta, b, &tb, nil, nil)
	fmt.Printf("%v, distance %.3f, x of closest points %.1f and %.1f\n", r.Status, r.Distance, r.PA.X, r.PB.X)
	// Output: separated, distance 2.000, x of closest points 0.5 and 2.5
}

// A polytope from a point set, through the convex hull: interior points
// are not vertices.
func ExampleFromPoints() {
	pts := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}, {X: 0, Y: 0, Z: 1}, {X: 0.1, Y: 0.1, Z: 0.1}}
	p, err := convex.FromPoints(pts)
	if err != nil {
		panic(err)
	}
	v, h := p.Support(geom.Vec3{X: 1, Y: 2, Z: 3})
	fmt.Println(p.NumVerts(), p.Vertex(int(v)), h)
	// Output: 4 (0, 0, 1) 3
}

// Small polytopes tested several times per frame: pose each once per frame
// (its vertices in world coordinates) and test the posed pairs.
func ExampleSearcher_IntersectPosed() {
	a, _ := convex.New(shapes.Cube(1))
	b, _ := convex.New(shapes.Cube(1))
	var s convex.Searcher
	var cache convex.Cache // per pair, frame to frame
	var pa, pb convex.Posed
	for frame := 0; frame < 3; frame++ {
		ta := geom.TransformIdentity()
		tb := geom.Pose{P: geom.Vec3{X: 1.5 - 0.5*float64(frame)}, Q: geom.QuatIdentity()}.Transform()
		pa.Set(a, &ta)
		pb.Set(b, &tb)
		fmt.Println(frame, s.IntersectPosed(&pa, &pb, &cache).Status)
	}
	// Output:
	// 0 separated
	// 1 intersecting
	// 2 intersecting
}

// The signed distance of two cubes: apart, then overlapping by 0.1 along
// x (the depth and the direction B must move), with its contact record.
func ExampleSearcher_SignedDistance() {
	a, _ := convex.New(shapes.Cube(1))
	b, _ := convex.New(shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.Vec3{X: 1.5, Y: 0.2}, Q: geom.QuatIdentity()}.Transform()
	var s convex.Searcher
	var cache convex.DistanceCache
	d, _ := s.SignedDistance(a, &ta, b, &tb, &cache)
	fmt.Printf("separation %.2f along (%.0f, %.0f, %.0f)\n", d.Separation, d.Normal.X, d.Normal.Y, d.Normal.Z)
	tb.T.X = 0.9
	d, _ = s.SignedDistance(a, &ta, b, &tb, &cache)
	c, _ := d.Record(0)
	fmt.Printf("%v, separation %.2f along (%.0f, %.0f, %.0f), exact %v\n", c.Status, c.Separation, c.Normal.X, c.Normal.Y, c.Normal.Z, d.Exact)
	// Output:
	// separation 0.50 along (1, 0, 0)
	// penetrating, separation -0.10 along (1, 0, 0), exact true
}

// A cube resting on a slab: four contacts at the cube's bottom corners,
// each with its separation and a feature pair that keys a solver's warm
// start.
func ExampleSearcher_Manifold() {
	slab, _ := convex.New(shapes.Box(geom.Vec3{X: 2, Y: 2, Z: 0.5}))
	cube, _ := convex.New(shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.Vec3{Z: 0.999}, Q: geom.QuatIdentity()}.Transform()
	var s convex.Searcher
	var cache convex.DistanceCache // one per pair, kept from step to step
	cs, _ := s.Manifold(slab, &ta, cube, &tb, 0.01, &cache, nil)
	for _, c := range cs {
		fmt.Printf("%v at (%.1f, %.1f, %.4f), separation %.3f, %v / %v\n", c.Status, c.Point.X, c.Point.Y, c.Point.Z, c.Separation, c.FeatureA.Kind, c.FeatureB.Kind)
	}
	// Unordered output:
	// penetrating at (-0.5, -0.5, 0.4995), separation -0.001, face / vertex
	// penetrating at (0.5, -0.5, 0.4995), separation -0.001, face / vertex
	// penetrating at (0.5, 0.5, 0.4995), separation -0.001, face / vertex
	// penetrating at (-0.5, 0.5, 0.4995), separation -0.001, face / vertex
}

// Three cubes in a row, a frame's pairs answered in one call, each pair
// with its own cache carried to the next frame (here the same poses).
func ExampleSearcher_SignedDistances() {
	cube, _ := convex.New(shapes.Cube(1))
	polys := []*convex.Polytope{cube, cube, cube}
	tf := make([]geom.Transform, 3)
	for i, x := range []float64{0, 0.9, 2.4} {
		tf[i] = geom.Pose{P: geom.Vec3{X: x}, Q: geom.QuatIdentity()}.Transform()
	}
	caches := make([]convex.DistanceCache, 2) // one per pair, kept by the caller
	qs := []convex.PairQuery{{A: 0, B: 1, Cache: &caches[0]}, {A: 1, B: 2, Cache: &caches[1]}}
	var s convex.Searcher
	for frame := 0; frame < 2; frame++ {
		if bad := s.SignedDistances(polys, tf, qs); bad != 0 {
			for _, q := range qs {
				if q.Err != nil {
					panic(q.Err)
				}
			}
		}
	}
	for _, q := range qs {
		fmt.Printf("%d-%d: separation %.2f along (%.0f, %.0f, %.0f)\n", q.A, q.B, q.Out.Separation, q.Out.Normal.X, q.Out.Normal.Y, q.Out.Normal.Z)
	}
	// Output:
	// 0-1: separation -0.10 along (1, 0, 0)
	// 1-2: separation 0.50 along (1, 0, 0)
}
