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
