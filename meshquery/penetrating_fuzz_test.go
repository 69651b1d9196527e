package meshquery

import (
	"testing"

	"github.com/collide-go/collide/geom"
)

// checkPenetrating runs PenetratingVertices for FuzzQueries: valid
// records, each with a negative separation no deeper than the returned
// depth, which one of them reaches (or none and depth 0).
func checkPenetrating(t *testing.T, q *Scratch, a *Tree, ta *geom.Transform, b *Tree, tb *geom.Transform) {
	recs, deepest, err := q.PenetratingVertices(a, ta, b, tb, nil)
	if err != nil {
		t.Fatalf("PenetratingVertices: %v where Intersect accepted the input", err)
	}
	reached := len(recs) == 0 && deepest == 0
	for _, c := range recs {
		if err := c.Validate(); err != nil || !(c.Separation < 0) || -c.Separation > deepest {
			t.Fatalf("record %v (deepest %v): %v", c, deepest, err)
		}
		reached = reached || -c.Separation == deepest
	}
	if !reached {
		t.Fatalf("deepest %v is no record's depth: %v", deepest, recs)
	}
}
