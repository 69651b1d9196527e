package view

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// pointTriangle is the distance from p to triangle abc: to the plane where
// p's projection falls inside (all three edge tests agree in sign),
// else to the nearest of the three edges.
func pointTriangle(p, a, b, c geom.Vec3) float64 {
	n := b.Sub(a).Cross(c.Sub(a))
	if nn := n.Dot(n); nn > 0 {
		s1 := b.Sub(a).Cross(p.Sub(a)).Dot(n)
		s2 := c.Sub(b).Cross(p.Sub(b)).Dot(n)
		s3 := a.Sub(c).Cross(p.Sub(c)).Dot(n)
		if s1 >= 0 && s2 >= 0 && s3 >= 0 {
			return math.Abs(p.Sub(a).Dot(n)) / math.Sqrt(nn)
		}
	}
	seg := func(u, v geom.Vec3) float64 {
		d := v.Sub(u)
		t := 0.0
		if dd := d.Dot(d); dd > 0 {
			t = math.Min(1, math.Max(0, p.Sub(u).Dot(d)/dd))
		}
		return p.Sub(u.Add(d.Scale(t))).Norm()
	}
	return math.Min(seg(a, b), math.Min(seg(b, c), seg(c, a)))
}

// farthestVertex is the largest distance from a point of ps to the nearest
// triangle, by brute force.
func farthestVertex(ps, vs []geom.Vec3, idx []uint32) float64 {
	worst := 0.0
	for _, p := range ps {
		d := math.Inf(1)
		for k := 0; k+2 < len(idx); k += 3 {
			d = math.Min(d, pointTriangle(p, vs[idx[k]], vs[idx[k+1]], vs[idx[k+2]]))
		}
		worst = math.Max(worst, d)
	}
	return worst
}

// volume is the signed volume enclosed by the triangles (divergence
// theorem: a sixth of the sum of a · (b × c)).
func volume(vs []geom.Vec3, idx []uint32) float64 {
	s := 0.0
	for k := 0; k+2 < len(idx); k += 3 {
		s += vs[idx[k]].Dot(vs[idx[k+1]].Cross(vs[idx[k+2]]))
	}
	return s / 6
}

func levelVerts(l lodLevel) []geom.Vec3 {
	vs := make([]geom.Vec3, len(l.verts)/3)
	for i := range vs {
		vs[i] = geom.Vec3{X: float64(l.verts[3*i]), Y: float64(l.verts[3*i+1]), Z: float64(l.verts[3*i+2])}
	}
	return vs
}

// TestLODLevels checks the simplified levels of the pile sample's meshes
// and a finer torus: each has at most half the triangles of the one before,
// valid triangles, the same orientation and nearly the same volume as the
// mesh, and the error it claims: the largest distance from a vertex of
// either surface to the other's triangles (by brute force), small beside
// the mesh.
func TestLODLevels(t *testing.T) {
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "pile-b24-k180-s1"))
	if err != nil {
		t.Fatal(err)
	}
	meshes := map[string]*mesh.Mesh{"torus 40x20": shapes.Torus(1, 0.3, 40, 20)}
	for _, m := range sc.Meshes {
		meshes[m.Name] = m.Mesh
	}
	withLevels := 0
	for name, m := range meshes {
		tris := triangles(m)
		levels := lodLevels(m.Verts, tris)
		if len(tris)/3 >= 4*lodMinTris && len(levels) == 0 {
			t.Errorf("%s: %d triangles and no simpler level", name, len(tris)/3)
		}
		if len(levels) > 0 {
			withLevels++
		}
		b := m.Bounds()
		size := b.Max.Sub(b.Min).Norm()
		v0 := volume(m.Verts, tris)
		last, lastErr := len(tris)/3, 0.0
		for i, l := range levels {
			n := len(l.idx) / 3
			vs := levelVerts(l)
			if 2*n > last || n < lodMinTris {
				t.Errorf("%s level %d: %d triangles after %d", name, i+1, n, last)
			}
			for k := 0; k+2 < len(l.idx); k += 3 {
				a, b, c := l.idx[k], l.idx[k+1], l.idx[k+2]
				if int(max(a, b, c)) >= len(vs) || a == b || b == c || c == a {
					t.Fatalf("%s level %d: triangle %d has corners %d %d %d of %d vertices", name, i+1, k/3, a, b, c, len(vs))
				}
			}
			if v := volume(vs, l.idx); math.Abs(v-v0) > 0.35*math.Abs(v0) {
				t.Errorf("%s level %d: volume %.6g, mesh %.6g", name, i+1, v, v0)
			}
			if !(l.err < 0.1*size) || l.err < lastErr-1e-12 {
				t.Errorf("%s level %d: error %g (previous level %g) for a mesh of diagonal %g", name, i+1, l.err, lastErr, size)
			}
			// The error is the largest gap at the vertices, both ways.
			gap := math.Max(farthestVertex(m.Verts, vs, l.idx), farthestVertex(vs, m.Verts, tris))
			if math.Abs(gap-l.err) > 1e-6*size {
				t.Errorf("%s level %d: error %g, the largest gap at the vertices is %g", name, i+1, l.err, gap)
			}
			t.Logf("%s level %d: %d triangles, error %.4g (%.2f%% of the diagonal)", name, i+1, n, l.err, 100*l.err/size)
			last, lastErr = n, l.err
		}
	}
	if withLevels < 4 {
		t.Errorf("only %d of %d meshes have simpler levels", withLevels, len(meshes))
	}
}

// BenchmarkLODLevels simplifies a torus of 1600 triangles into its levels,
// errors included (the work Encode does once per mesh).
func BenchmarkLODLevels(b *testing.B) {
	m := shapes.Torus(1, 0.3, 40, 20)
	tris := triangles(m)
	for b.Loop() {
		if len(lodLevels(m.Verts, tris)) == 0 {
			b.Fatal("no level")
		}
	}
}
