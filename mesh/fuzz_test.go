package mesh_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// decodeSoup turns fuzz bytes into a small soup: byte 0 gives the vertex
// count (1..16), then 3 bytes per vertex on a coarse integer grid (so
// duplicates, collinear and coplanar points are common; 127 is NaN and -128
// is +Inf), then faces as a length byte (0..6 corners) and that many index
// bytes (index = byte mod (count+1), so count itself is out of range).
func decodeSoup(data []byte) soup {
	s := soup{name: "fuzz"}
	if len(data) == 0 {
		return s
	}
	nv := 1 + int(data[0])%16
	data = data[1:]
	for i := 0; i < nv && len(data) >= 3; i++ {
		var c [3]float64
		for k := range c {
			switch b := int8(data[k]); b {
			case 127:
				c[k] = math.NaN()
			case -128:
				c[k] = math.Inf(1)
			default:
				c[k] = float64(b) / 4
			}
		}
		s.verts = append(s.verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
		data = data[3:]
	}
	for len(data) > 0 {
		n := int(data[0]) % 7
		data = data[1:]
		var l []int
		for k := 0; k < n && len(data) > 0; k++ {
			l = append(l, int(data[0])%(len(s.verts)+1))
			data = data[1:]
		}
		s.faces = append(s.faces, l)
	}
	return s
}

func encodeSoup(verts [][3]int8, faces [][]byte) []byte {
	b := []byte{byte(len(verts) - 1)}
	for _, v := range verts {
		b = append(b, byte(v[0]), byte(v[1]), byte(v[2]))
	}
	for _, f := range faces {
		b = append(b, byte(len(f)))
		b = append(b, f...)
	}
	return b
}

// FuzzNew checks mesh.New on arbitrary small soups: it never panics; an
// error is an *Error whose indices are in range; a mesh agrees with the
// brute-force oracle in every adjacency field and flag.
func FuzzNew(f *testing.F) {
	tet := [][3]int8{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}}
	f.Add(encodeSoup(tet, [][]byte{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}))
	f.Add(encodeSoup(tet, [][]byte{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}}))
	f.Add(encodeSoup(tet, [][]byte{{0, 1, 2}, {0, 2, 1}}))
	f.Add(encodeSoup(tet, [][]byte{{0, 1, 2}, {0, 1, 3}, {1, 0, 3}}))
	f.Add(encodeSoup([][3]int8{{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}, {-4, 0, 0}, {-4, -4, 0}}, [][]byte{{0, 1, 2, 3}, {0, 4, 5}}))
	f.Add(encodeSoup([][3]int8{{0, 0, 0}, {4, 0, 0}, {8, 0, 0}, {0, 127, 0}}, [][]byte{{0, 1, 2}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := decodeSoup(data)
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			var me *mesh.Error
			if !errors.As(err, &me) {
				t.Fatalf("error %T is not a *mesh.Error: %v", err, err)
			}
			if me.Face >= len(s.faces) || me.Vertex >= len(s.verts) || me.Face < mesh.None || me.Vertex < mesh.None {
				t.Fatalf("error names face %d vertex %d of %d faces %d vertices", me.Face, me.Vertex, len(s.faces), len(s.verts))
			}
			return
		}
		o := newOracle(s)
		if msg := checkAdjacency(m, o); msg != "" {
			t.Fatalf("%s\nverts %v\nfaces %v", msg, s.verts, s.faces)
		}
		if want := o.convex(m.ConvexTol()); m.Convex() != want {
			t.Fatalf("Convex %v, want %v\nverts %v\nfaces %v", m.Convex(), want, s.verts, s.faces)
		}
		if err := m.RequireSolid(); err == nil && !(m.Closed() && m.Oriented() && m.Volume() > 0) {
			t.Fatalf("RequireSolid accepted a mesh that is not solid")
		}
		if err := m.RequireManifoldSolid(); err == nil && !(m.Closed() && m.Manifold() && m.Oriented() && m.Volume() > 0) {
			t.Fatalf("RequireManifoldSolid accepted a mesh that is not a manifold solid")
		}
		// Mass properties of every solid: finite, positive, and physical
		// (principal moments satisfy the triangle inequality).
		if mp, err := mesh.MassProperties(m, 2); err == nil {
			p := mp.Principal
			if !(mp.Mass > 0) || !mp.Center.IsFinite() || !(p.X >= -1e-9*p.Z) || !(p.X+p.Y >= p.Z*(1-1e-9)) {
				t.Fatalf("mass properties %+v", mp)
			}
		} else if m.RequireSolid() == nil && !strings.Contains(err.Error(), "not those of a solid") {
			t.Fatalf("MassProperties refused a solid: %v", err)
		}
		m.Triangles(nil)
	})
}
