package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
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

// TestFacePlanesVec: the vector kernel gives every new face the plane
// facePlane computes, bit for bit (degenerate faces included: a repeated
// vertex, collinear points), for 1 to 9 faces at once, and writes nothing
// past them.
func TestFacePlanesVec(t *testing.T) {
	if !haveVec {
		t.Skip("no AVX2 kernels")
	}
	rng := rand.New(rand.NewPCG(5, 19))
	pt := func() geom.Vec3 {
		s := math.Pow(10, float64(rng.IntN(7)-3))
		return geom.Vec3{X: s * rng.NormFloat64(), Y: s * rng.NormFloat64(), Z: s * rng.NormFloat64()}
	}
	degenerate := 0
	for trial := 0; trial < 2000; trial++ {
		nv := 2 + rng.IntN(12)
		verts := make([]epaVert, nv)
		for i := range verts {
			verts[i].w = pt()
		}
		if trial%7 == 0 {
			verts[1].w = verts[0].w
		}
		if trial%11 == 0 {
			verts[1].w = verts[0].w.Scale(3)
		}
		w := pt()
		if trial%13 == 0 {
			w = verts[0].w.Scale(-2)
		}
		n := 1 + rng.IntN(9)
		rim := make([]rimEdge, n)
		for j := range rim {
			rim[j] = rimEdge{face: int32(j), a: int32(rng.IntN(nv)), b: int32(rng.IntN(nv)), edge: int8(j % 3)}
			if trial%5 == 0 && j == 0 {
				rim[j].a, rim[j].b = 0, 1
			}
		}
		faces := make([]epaFace, n+1)
		dist := make([]float64, n+1)
		faces[n].d, dist[n] = -7, -7 // past the last face: untouched
		facePlanesVec(&verts[0], &rim[0], n, &w, &faces[0], &dist[0])
		for j, r := range rim {
			wn, wd := facePlane(verts[r.a].w, verts[r.b].w, w)
			if math.IsInf(wd, 1) {
				degenerate++
			}
			if faces[j].n != wn || math.Float64bits(faces[j].d) != math.Float64bits(wd) || math.Float64bits(dist[j]) != math.Float64bits(wd) {
				t.Fatalf("trial %d face %d of %d: kernel %v %v %v, facePlane %v %v", trial, j, n, faces[j].n, faces[j].d, dist[j], wn, wd)
			}
		}
		if faces[n].d != -7 || dist[n] != -7 || faces[n].n != (geom.Vec3{}) {
			t.Fatalf("trial %d: wrote past the %d faces", trial, n)
		}
	}
	if degenerate < 50 {
		t.Fatalf("only %d degenerate faces tested", degenerate)
	}
}
