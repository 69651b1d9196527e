package ccd

import (
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

// TestAllocsStackQuery checks that the convenience functions, whose Query
// lives on the caller's stack, do not allocate (a regression: the solver
// once kept a pointer to the query, which moved it to the heap).
func TestAllocsStackQuery(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	s := [4]geom.Vec3{geom.V(0.25, 0.25, 1), geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}
	e := s
	e[0] = geom.V(0.25, 0.25, -1)
	n := testing.AllocsPerRun(100, func() { VertexFace(s, e, Options{}); EdgeEdge(s, e, Options{}) })
	if n != 0 {
		t.Errorf("VertexFace/EdgeEdge allocate %v per call", n)
	}
}
