package convex

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestVertexExit checks vertexExit, the feature walk's step out of a
// vertex, against the exit computed from the mesh's own edge lists and
// vertices: the neighbour u maximising ((u - v).n)^2 / |u - v|^2 over
// those with (u - v).n > 0, or none, for random directions near the
// vertex's outward direction on hulls of 8 to 103 vertices (both answers
// occurring).
func TestVertexExit(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	exits, stays := 0, 0
	for trial := 0; trial < 16; trial++ {
		n := 8 + rng.IntN(96)
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
	if r := float64(exits) / float64(exits+stays); r < 0.3 || r > 0.7 {
		t.Fatalf("%d exits and %d stays: exit rate %.2f outside [0.3, 0.7]", exits, stays, r)
	}
}
