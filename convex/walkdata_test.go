package convex

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestWalkTables checks the feature walk's inline tables of polytopes
// above bigWalk vertices against the mesh they were built from: each
// vertex's neighbours with their coordinates (nbr) and each edge's ends,
// faces and face normals (edges); polytopes at or below bigWalk keep
// neither. It then checks vertexExit, which reads the tables, against the
// exit computed from the mesh's own edge lists and vertices: the
// neighbour u maximising ((u - v).n)^2 / |u - v|^2 over those with
// (u - v).n > 0, or none, over random directions near the vertex's
// outward direction (both answers occurring).
func TestWalkTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	big, exits, stays := 0, 0, 0
	for trial := 0; trial < 16; trial++ {
		n := 8 + rng.IntN(3*bigWalk)
		pts := make([]geom.Vec3, n)
		for i := range pts {
			v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			pts[i] = v.Scale(1 / v.Norm())
		}
		p, err := FromPoints(pts)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Mesh()
		nv := m.NumVerts()
		if (p.nbr != nil) != (nv > bigWalk) || (p.edges != nil) != (nv > bigWalk) {
			t.Fatalf("trial %d: %d vertices, inline neighbours %v, edge records %v", trial, nv, p.nbr != nil, p.edges != nil)
		}
		if p.nbr == nil {
			continue
		}
		big++
		for v := 0; v < nv; v++ {
			var want, got []int32
			for _, e := range m.VertexEdges(v) {
				want = append(want, m.Edges[e].Other(int32(v)))
			}
			lo, hi := p.slots(int32(v))
			for _, nb := range p.nbr[lo:hi] {
				if nb.v != m.Verts[nb.i] {
					t.Fatalf("trial %d vertex %d: neighbour %d at %v, mesh %v", trial, v, nb.i, nb.v, m.Verts[nb.i])
				}
				got = append(got, nb.i)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Fatalf("trial %d vertex %d: neighbours %v, mesh %v", trial, v, got, want)
			}
		}
		for e, r := range p.edges {
			me := m.Edges[e]
			if r.v != me.V || r.left != me.Left || r.right != me.Right || r.nl != m.Planes[me.Left].N || r.nr != m.Planes[me.Right].N {
				t.Fatalf("trial %d edge %d: record %+v, mesh %+v", trial, e, r, me)
			}
		}
		for k := 0; k < 200; k++ {
			v := int32(rng.IntN(nv))
			x := m.Verts[v]
			d := x.Add(geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(0.15))
			want, best := int32(-1), 0.0
			for _, e := range m.VertexEdges(int(v)) {
				u := m.Edges[e].Other(v)
				du := m.Verts[u].Sub(x)
				if h := d.Dot(m.Verts[u]) - d.Dot(x); h > 0 && h*h/du.Dot(du) > best {
					want, best = u, h*h/du.Dot(du)
				}
			}
			if got := vertexExit(p, v, d); got != want {
				t.Fatalf("trial %d vertex %d direction %v: exit %d, mesh %d", trial, v, d, got, want)
			}
			if want < 0 {
				stays++
			} else {
				exits++
			}
		}
	}
	if big < 4 || exits < 200 || stays < 200 {
		t.Fatalf("%d polytopes above %d vertices, %d exits and %d stays: too few", big, bigWalk, exits, stays)
	}
	t.Logf("%d polytopes above %d vertices, %d exits, %d stays", big, bigWalk, exits, stays)
}
