package ccd_test

import (
	"fmt"
	"strings"

	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// A vertex falls through a static triangle; the default (conservative)
// method finds the first contact.
func ExampleVertexFace() {
	a, b, c := geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)
	start := [4]geom.Vec3{geom.V(0.25, 0.25, 1), a, b, c}
	end := [4]geom.Vec3{geom.V(0.25, 0.25, -1), a, b, c}
	r := ccd.VertexFace(start, end, ccd.Options{})
	fmt.Printf("%v at t=%.4f, normal %v\n", r.Status, r.Time, r.Normal)
	// Output: hit at t=0.5000, normal (-0, -0, -1)
}

// Two edges cross; Jansen's cubic finds the same contact here, but it
// misses contacts in degenerate cases where the default method does not.
func ExampleEdgeEdge() {
	start := [4]geom.Vec3{geom.V(-1, 0, 1), geom.V(1, 0, 1), geom.V(0, -1, 0), geom.V(0, 1, 0)}
	end := [4]geom.Vec3{geom.V(-1, 0, -1), geom.V(1, 0, -1), geom.V(0, -1, 0), geom.V(0, 1, 0)}
	for _, m := range []ccd.Method{ccd.Inclusion, ccd.Cubic} {
		r := ccd.EdgeEdge(start, end, ccd.Options{Method: m})
		fmt.Printf("%-9v %v at t=%.4f u=%.2f v=%.2f\n", m, r.Status, r.Time, r.U, r.V)
	}
	// Output:
	// inclusion hit at t=0.5000 u=0.50 v=0.50
	// cubic     hit at t=0.5000 u=0.50 v=0.50
}

// A point sliding in the plane of a triangle: the coplanarity cubic is
// identically zero, so Jansen's method sees nothing; the default method
// reports the contact when the point reaches the edge at t=5/6.
func ExampleQuery_Test_sliding() {
	q := ccd.Query{
		Kind:  contact.VertexFace,
		Start: [4]geom.Vec3{geom.V(2, 0.25, 0), geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)},
		End:   [4]geom.Vec3{geom.V(0.5, 0.25, 0), geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)},
	}
	fmt.Println("cubic:    ", q.Test(ccd.Options{Method: ccd.Cubic}).Status)
	r := q.Test(ccd.Options{})
	fmt.Printf("inclusion: %v at t=%.6f\n", r.Status, r.Time)
	// Output:
	// cubic:     separated
	// inclusion: hit at t=0.833333
}

// Minimum separation: report contact when the point comes within 0.1.
func ExampleOptions_minDistance() {
	a, b, c := geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)
	start := [4]geom.Vec3{geom.V(-1, 0.25, 0.05), a, b, c}
	end := [4]geom.Vec3{geom.V(2, 0.25, 0.05), a, b, c}
	fmt.Println(ccd.VertexFace(start, end, ccd.Options{}).Status)
	fmt.Println(ccd.VertexFace(start, end, ccd.Options{MinDistance: 0.1}).Status)
	// Output:
	// separated
	// hit
}

// Reading queries in the benchmark format of Wang et al. (2021).
func ExampleParseQueries() {
	csv := `0,1,1,1,0,1,1
-1,1,0,1,-1,1,1
1,1,0,1,-1,1,1
0,1,0,1,1,1,1
0,1,-1,1,0,1,1
-1,1,0,1,-1,1,1
1,1,0,1,-1,1,1
0,1,0,1,1,1,1
`
	qs, truth, err := ccd.ParseQueries(strings.NewReader(csv), "example.csv", contact.VertexFace)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := qs[0].Test(ccd.Options{})
	fmt.Println(len(qs), truth[0], r.Hit())
	// Output: 1 true true
}

// The collision response of Jansen's Sec. 3.5 at an edge-edge contact.
func ExampleImpulse() {
	start := [4]geom.Vec3{geom.V(-1, 0, 1), geom.V(1, 0, 1), geom.V(0, -1, 0), geom.V(0, 1, 0)}
	end := [4]geom.Vec3{geom.V(-1, 0, -1), geom.V(1, 0, -1), geom.V(0, -1, 0), geom.V(0, 1, 0)}
	r := ccd.EdgeEdge(start, end, ccd.Options{})
	vel := [4]geom.Vec3{geom.V(0, 0, -2), geom.V(0, 0, -2), {}, {}}
	invMass := [4]float64{1, 1, 1, 1}
	dv, j, ok := ccd.Impulse(r.Normal, ccd.EdgeEdgeWeights(r.U, r.V), vel, invMass, 1)
	fmt.Printf("%v j=%.3f dvA0.z=%.3f dvB0.z=%.3f\n", ok, j, dv[0].Z, dv[2].Z)
	// Output: true j=4.000 dvA0.z=2.000 dvB0.z=-2.000
}
