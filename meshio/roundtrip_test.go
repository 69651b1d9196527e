package meshio

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// testShapes returns the generator shapes plus seeded random meshes:
// random polygon soups (planar convex polygons scattered in space, some
// sharing vertices) and random tori.
func testShapes(t testing.TB, nRandom int) map[string]*mesh.Mesh {
	ms := map[string]*mesh.Mesh{
		"cube":   shapes.Cube(1),
		"box":    shapes.Box(geom.Vec3{X: 1, Y: 0.5, Z: 0.25}),
		"car":    shapes.Car(),
		"torus":  shapes.Torus(1, 0.35, 20, 15),
		"bullet": shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength),
		"warped": shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp),
	}
	rng := rand.New(rand.NewPCG(7, 2))
	for i := 0; i < nRandom; i++ {
		if i%3 == 0 {
			R := 0.5 + 3*rng.Float64()
			ms[fmt.Sprintf("torus%d", i)] = shapes.Torus(R, R*(0.1+0.8*rng.Float64()), 3+rng.IntN(20), 3+rng.IntN(20))
			continue
		}
		verts, faces := randomSoup(rng)
		m, err := mesh.New(verts, faces, nil)
		if err != nil {
			t.Fatalf("random soup %d: %v", i, err)
		}
		ms[fmt.Sprintf("soup%d", i)] = m
	}
	return ms
}

// randomSoup returns planar convex polygons of 3..8 vertices in random
// planes at random places and scales; some faces reuse earlier vertices
// (so edges are shared, possibly by several faces) and some vertices are
// unused.
func randomSoup(rng *rand.Rand) ([]geom.Vec3, [][]int) {
	var verts []geom.Vec3
	var faces [][]int
	scale := math.Pow(10, float64(rng.IntN(7)-3))
	nf := 1 + rng.IntN(12)
	for f := 0; f < nf; f++ {
		if f > 0 && rng.IntN(3) == 0 {
			// A triangle on an existing edge of an earlier face.
			l := faces[rng.IntN(len(faces))]
			k := rng.IntN(len(l))
			a, b := l[k], l[(k+1)%len(l)]
			mid := verts[a].Add(verts[b]).Scale(0.5)
			off := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(scale)
			verts = append(verts, mid.Add(off))
			faces = append(faces, []int{b, a, len(verts) - 1})
			continue
		}
		c := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(5 * scale)
		n, _ := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		u, w := n.Orthonormal()
		k := 3 + rng.IntN(6)
		start := len(verts)
		var l []int
		for j := 0; j < k; j++ {
			ang := 2 * math.Pi * (float64(j) + 0.8*rng.Float64()) / float64(k)
			r := scale * (0.5 + rng.Float64())
			verts = append(verts, c.Add(u.Scale(r*math.Cos(ang))).Add(w.Scale(r*math.Sin(ang))))
			l = append(l, start+j)
		}
		faces = append(faces, l)
		if rng.IntN(4) == 0 { // an unused vertex
			verts = append(verts, c.Scale(2))
		}
	}
	return verts, faces
}

// sameMesh reports how a and b differ in vertices or face loops, or "".
func sameMesh(a, b *mesh.Mesh) string {
	if !slices.Equal(a.Verts, b.Verts) {
		return fmt.Sprintf("vertices differ: %d vs %d", len(a.Verts), len(b.Verts))
	}
	if !slices.Equal(a.FaceStart, b.FaceStart) || !slices.Equal(a.FaceVerts, b.FaceVerts) {
		return "faces differ"
	}
	if a.NumEdges() != b.NumEdges() || a.Closed() != b.Closed() || a.Convex() != b.Convex() || a.Euler() != b.Euler() {
		return "topology differs"
	}
	return ""
}

type writerCase struct {
	name  string
	write func(*bytes.Buffer, *mesh.Mesh) error
	read  func(*bytes.Buffer, string) (*mesh.Mesh, error)
}

var exactWriters = []writerCase{
	{"obj", func(b *bytes.Buffer, m *mesh.Mesh) error { return WriteOBJ(b, m) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return ReadOBJ(b, n, nil) }},
	{"off", func(b *bytes.Buffer, m *mesh.Mesh) error { return WriteOFF(b, m) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return ReadOFF(b, n, nil) }},
	{"ply-le", func(b *bytes.Buffer, m *mesh.Mesh) error { return WritePLY(b, m, PLYBinaryLE) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return ReadPLY(b, n, nil) }},
	{"ply-be", func(b *bytes.Buffer, m *mesh.Mesh) error { return WritePLY(b, m, PLYBinaryBE) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return ReadPLY(b, n, nil) }},
	{"ply-ascii", func(b *bytes.Buffer, m *mesh.Mesh) error { return WritePLY(b, m, PLYASCII) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return ReadPLY(b, n, nil) }},
	{"sniffed-obj", func(b *bytes.Buffer, m *mesh.Mesh) error { return Write(b, m, OBJ) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return Read(b, "noext", nil) }},
	{"sniffed-ply", func(b *bytes.Buffer, m *mesh.Mesh) error { return Write(b, m, PLY) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return Read(b, "noext", nil) }},
	{"sniffed-off", func(b *bytes.Buffer, m *mesh.Mesh) error { return Write(b, m, OFF) },
		func(b *bytes.Buffer, n string) (*mesh.Mesh, error) { return Read(b, "noext", nil) }},
}

// TestRoundTripExact writes every test shape and random mesh in every
// exact format, reads it back and compares vertices and loops bit for bit.
func TestRoundTripExact(t *testing.T) {
	for name, m := range testShapes(t, 300) {
		for _, w := range exactWriters {
			var buf bytes.Buffer
			if err := w.write(&buf, m); err != nil {
				t.Fatalf("%s %s: write: %v", name, w.name, err)
			}
			text := buf.String()
			got, err := w.read(&buf, name+"."+w.name)
			if err != nil {
				t.Fatalf("%s %s: read back: %v\n%.2000s", name, w.name, err, text)
			}
			if d := sameMesh(m, got); d != "" {
				t.Fatalf("%s %s: %s", name, w.name, d)
			}
		}
	}
}

// TestRoundTripSTL checks that STL (which stores triangles with their own
// corners) reads back as the triangulation of the mesh, with vertices
// merged back to the mesh's vertices, so topology survives.
func TestRoundTripSTL(t *testing.T) {
	for name, m := range testShapes(t, 120) {
		tris := m.Triangles(nil)
		// Unused vertices are lost in STL; vertices identical in float32
		// merge. Count the distinct float32 positions of used vertices.
		f32 := func(v geom.Vec3) geom.Vec3 {
			return geom.Vec3{X: float64(float32(v.X)), Y: float64(float32(v.Y)), Z: float64(float32(v.Z))}
		}
		for _, ascii := range []bool{false, true} {
			var buf bytes.Buffer
			var err error
			if ascii {
				err = WriteSTLASCII(&buf, m)
			} else {
				err = WriteSTL(&buf, m)
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := ReadSTLSoup(&buf, name+".stl")
			if err != nil {
				t.Fatalf("%s ascii=%v: %v", name, ascii, err)
			}
			if len(s.Faces) != len(tris) {
				t.Fatalf("%s ascii=%v: %d faces, want %d triangles", name, ascii, len(s.Faces), len(tris))
			}
			distinct := map[geom.Vec3]bool{}
			for i, tr := range tris {
				for k := 0; k < 3; k++ {
					want := m.Verts[tr.V[k]]
					if !ascii {
						want = f32(want)
					}
					distinct[want] = true
					if got := s.Verts[s.Faces[i][k]]; got != want {
						t.Fatalf("%s ascii=%v: triangle %d corner %d is %v, want %v", name, ascii, i, k, got, want)
					}
				}
			}
			if len(s.Verts) != len(distinct) {
				t.Fatalf("%s ascii=%v: %d vertices after merging, want %d", name, ascii, len(s.Verts), len(distinct))
			}
			// Shapes whose vertices stay distinct keep their topology.
			if len(distinct) == m.NumVerts() {
				got, err := s.Mesh(nil)
				if err != nil {
					continue // float32 rounding may flatten tiny random faces
				}
				if got.Closed() != m.Closed() || got.Manifold() != m.Manifold() || got.Oriented() != m.Oriented() || got.Euler() != m.Euler() {
					t.Fatalf("%s ascii=%v: topology changed: closed %v->%v manifold %v->%v oriented %v->%v euler %d->%d", name, ascii,
						m.Closed(), got.Closed(), m.Manifold(), got.Manifold(), m.Oriented(), got.Oriented(), m.Euler(), got.Euler())
				}
			}
		}
	}
}

// TestSoupRoundTrip writes soups that mesh.New rejects (repeated vertices,
// zero-area faces) as OBJ and reads them back as soups.
func TestSoupRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 500; i++ {
		nv := 1 + rng.IntN(20)
		s := &Soup{}
		for j := 0; j < nv; j++ {
			s.Verts = append(s.Verts, geom.Vec3{X: float64(rng.IntN(3)), Y: rng.NormFloat64() * 1e-300, Z: math.Ldexp(rng.Float64(), rng.IntN(1050)-1000)})
		}
		for f := rng.IntN(10); f > 0; f-- {
			var l []int
			for k := 3 + rng.IntN(5); k > 0; k-- {
				l = append(l, rng.IntN(nv))
			}
			s.Faces = append(s.Faces, l)
		}
		var buf bytes.Buffer
		if err := WriteOBJSoup(&buf, s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadOBJSoup(&buf, "soup.obj")
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slices.Equal(got.Verts, s.Verts) || len(got.Faces) != len(s.Faces) {
			t.Fatalf("case %d: vertices or face count differ", i)
		}
		for f := range s.Faces {
			if !slices.Equal(got.Faces[f], s.Faces[f]) {
				t.Fatalf("case %d: face %d is %v, want %v", i, f, got.Faces[f], s.Faces[f])
			}
			if got.FacePos[f] != int64(2+nv+f) {
				t.Fatalf("case %d: face %d at line %d, want %d", i, f, got.FacePos[f], 2+nv+f)
			}
		}
	}
}

// TestDropDegenerate injects degenerate faces (repeated vertices,
// collinear and coincident corners) into random valid meshes: DropDegenerate
// removes exactly those, keeps FacePos parallel, and the rest builds.
func TestDropDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 400; i++ {
		verts, faces := randomSoup(rng)
		s := &Soup{Name: "d.obj", Verts: verts}
		var wantPos []int64
		bad := 0
		for f, l := range faces {
			for rng.IntN(3) == 0 {
				p := s.Verts[rng.IntN(len(s.Verts))]
				d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
				n := len(s.Verts)
				switch rng.IntN(3) {
				case 0: // repeated vertex
					s.Faces = append(s.Faces, []int{l[0], l[1], l[0]})
				case 1: // collinear
					s.Verts = append(s.Verts, p, p.Add(d), p.Add(d.Scale(2.5)))
					s.Faces = append(s.Faces, []int{n, n + 1, n + 2})
				default: // two corners at one point
					s.Verts = append(s.Verts, p, p, p.Add(d))
					s.Faces = append(s.Faces, []int{n, n + 1, n + 2})
				}
				s.FacePos = append(s.FacePos, int64(-1))
				bad++
			}
			s.Faces = append(s.Faces, l)
			s.FacePos = append(s.FacePos, int64(f))
			wantPos = append(wantPos, int64(f))
		}
		if _, err := s.Mesh(nil); bad > 0 && err == nil {
			t.Fatalf("case %d: %d degenerate faces accepted by mesh.New", i, bad)
		}
		if got := s.DropDegenerate(nil); got != bad {
			t.Fatalf("case %d: dropped %d faces, want %d", i, got, bad)
		}
		if !slices.Equal(s.FacePos, wantPos) || len(s.Faces) != len(faces) {
			t.Fatalf("case %d: FacePos %v, want %v", i, s.FacePos, wantPos)
		}
		if _, err := s.Mesh(nil); err != nil {
			t.Fatalf("case %d: after DropDegenerate: %v", i, err)
		}
	}
}
