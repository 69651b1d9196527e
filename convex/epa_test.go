package convex

import (
	"math/rand/v2"
	"testing"
)

// TestLinkByTable checks the expanding polytope's linking of new faces by
// the vertex table (used when the horizon is not listed as a loop in
// order): the new faces (a, b, w) of a horizon loop, listed in a random
// order, each get across edge 2 (w -> a) the face whose b is a, and that
// face gets it back across its edge 1; a horizon that is not a closed
// loop is refused.
func TestLinkByTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 500; trial++ {
		h := 3 + rng.IntN(12)
		var e epaState
		nv := h + 1 + rng.IntN(5)
		e.verts = make([]epaVert, nv)
		w := int32(nv - 1)
		// The loop's vertices: a random selection of h of the others.
		loop := rng.Perm(nv - 1)[:h]
		first := int32(rng.IntN(4))
		e.faces = make([]epaFace, int(first)+h)
		order := rng.Perm(h)
		for j, i := range order {
			// The face of loop edge i: from loop[i+1] back to loop[i].
			a, b := int32(loop[(i+1)%h]), int32(loop[i])
			e.faces[int(first)+j] = epaFace{v: [3]int32{a, b, w}, alive: true}
		}
		broken := trial%5 == 0
		if broken {
			// A face whose a is on no other face's b: no closed loop.
			e.faces[first].v[0] = w
		}
		ok := e.linkByTable(first)
		if ok == broken {
			t.Fatalf("trial %d: linkByTable = %v for a %s loop", trial, ok, map[bool]string{true: "broken", false: "closed"}[broken])
		}
		if broken {
			continue
		}
		for j := first; j < int32(len(e.faces)); j++ {
			fj := &e.faces[j]
			k := fj.adj[2]
			if k < first || int(k) >= len(e.faces) || fj.adjE[2] != 1 {
				t.Fatalf("trial %d: face %d edge 2 -> %d (edge %d)", trial, j, k, fj.adjE[2])
			}
			fk := &e.faces[k]
			if fk.v[1] != fj.v[0] || fk.adj[1] != j || fk.adjE[1] != 2 {
				t.Fatalf("trial %d: face %d %v and face %d %v (adj %v) do not share edge w-%d", trial, j, fj.v, k, fk.v, fk.adj, fj.v[0])
			}
		}
		for _, x := range e.newAt {
			if x != 0 {
				t.Fatalf("trial %d: vertex table not cleared: %v", trial, e.newAt)
			}
		}
	}
}
