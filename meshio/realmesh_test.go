package meshio

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
)

// realMeshes is testdata/meshes at the module root: meshes from FCL,
// parry, rigid-IPC and Bullet with their licences (see its README).
const realMeshes = "../testdata/meshes"

// edgeOracle counts, from a face list alone, the faces on every undirected
// edge and how many traverse it in each direction.
type edgeOracle map[[2]int][2]int

func newEdgeOracle(fs [][]int) edgeOracle {
	o := edgeOracle{}
	for _, l := range fs {
		for k, a := range l {
			b := l[(k+1)%len(l)]
			if a < b {
				c := o[[2]int{a, b}]
				c[0]++
				o[[2]int{a, b}] = c
			} else {
				c := o[[2]int{b, a}]
				c[1]++
				o[[2]int{b, a}] = c
			}
		}
	}
	return o
}

// components groups faces joined across edges that have exactly two faces
// (union-find), and says for each group whether all its edges have two.
func components(fs [][]int, eo edgeOracle) (comp []int, closed map[int]bool) {
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	on := map[[2]int][]int{}
	for f, l := range fs {
		for k, a := range l {
			b := l[(k+1)%len(l)]
			on[[2]int{min(a, b), max(a, b)}] = append(on[[2]int{min(a, b), max(a, b)}], f)
		}
	}
	for _, faces := range on {
		if len(faces) == 2 {
			parent[find(faces[0])] = find(faces[1])
		}
	}
	comp = make([]int, len(fs))
	closed = map[int]bool{}
	for f := range fs {
		comp[f] = find(f)
		closed[comp[f]] = true
	}
	for e, faces := range on {
		if c := eo[e]; c[0]+c[1] != 2 {
			for _, f := range faces {
				closed[comp[f]] = false
			}
		}
	}
	return comp, closed
}

// TestRealMeshes loads each committed real-world mesh, repairs it and
// checks the result with oracles that share no code with Repair: the
// vertex count after welding (brute force), closedness and two-face edges
// traversed once each way (edge counts), every closed component outward
// (its signed volume, summed here from the triangles' corners).
func TestRealMeshes(t *testing.T) {
	cases := []struct {
		file string
		// The file as read: vertices and faces.
		verts, faces int
		// What the repaired mesh must be.
		closed, solid bool
	}{
		{"fcl/env.obj", 6540, 2180, false, false},
		{"fcl/rob.obj", 648, 216, false, false},
		{"parry/low_poly_bunny.obj", 350, 696, true, true},
		{"rigid-ipc/plane.obj", 4, 2, false, false},
		{"rigid-ipc/cube.obj", 8, 12, true, true},
		{"bullet/duck_vhacd.obj", 208, 396, true, true},
	}
	for _, c := range cases {
		path := filepath.Join(realMeshes, c.file)
		s, err := ReadSoupFile(path)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(s.Verts) != c.verts || len(s.Faces) != c.faces {
			t.Fatalf("%s: read %d vertices %d faces, want %d %d", c.file, len(s.Verts), len(s.Faces), c.verts, c.faces)
		}
		// Oracle weld at the same absolute tolerance.
		tol := DefaultWeldTol * geom.AABBOf(s.Verts...).Diagonal()
		wv, wf := bruteWeld(s.Verts, s.Faces, tol)
		used := map[int]bool{}
		for _, l := range wf {
			for _, v := range l {
				used[v] = true
			}
		}
		rep := s.Repair(nil)
		if len(s.Verts) != len(used) || rep.Welded != c.verts-len(wv) {
			t.Fatalf("%s: %d vertices after repair (welded %d), brute force keeps %d of which %d used", c.file, len(s.Verts), rep.Welded, len(wv), len(used))
		}
		m, err := s.Mesh(nil)
		if err != nil {
			t.Fatalf("%s: after repair: %v", c.file, err)
		}
		eo := newEdgeOracle(s.Faces)
		allTwo := true
		for e, n := range eo {
			if n[0]+n[1] != 2 {
				allTwo = false
			}
			if n[0]+n[1] == 2 && n[0] != 1 {
				t.Fatalf("%s: edge %v traversed %d and %d times in its two directions", c.file, e, n[0], n[1])
			}
		}
		if m.Closed() != allTwo || m.Closed() != c.closed {
			t.Fatalf("%s: Closed %v, edge count says %v, want %v", c.file, m.Closed(), allTwo, c.closed)
		}
		if err := m.RequireSolid(); (err == nil) != c.solid {
			t.Fatalf("%s: RequireSolid %v, want solid %v", c.file, err, c.solid)
		}
		comp, closed := components(s.Faces, eo)
		vol := map[int]float64{}
		for f, l := range s.Faces {
			for k := 1; k+1 < len(l); k++ {
				a, b, d := s.Verts[l[0]], s.Verts[l[k]], s.Verts[l[k+1]]
				vol[comp[f]] += a.Dot(b.Cross(d)) / 6
			}
		}
		nClosed := 0
		for k, isClosed := range closed {
			if !isClosed {
				continue
			}
			nClosed++
			if !(vol[k] > 0) {
				t.Fatalf("%s: closed component of face %d has volume %g", c.file, k, vol[k])
			}
		}
		if nClosed != rep.Orient.Closed || len(closed) != rep.Orient.Components {
			t.Fatalf("%s: %d components (%d closed), Orient says %d (%d)", c.file, len(closed), nClosed, rep.Orient.Components, rep.Orient.Closed)
		}
		// Flip a third of the faces at random: Orient must restore every
		// face of a closed component.
		rng := rand.New(rand.NewPCG(21, uint64(len(c.file))))
		saved := make([][]int, len(s.Faces))
		for f, l := range s.Faces {
			saved[f] = slices.Clone(l)
			if rng.IntN(3) == 0 {
				slices.Reverse(l)
			}
		}
		s.Orient()
		for f, l := range s.Faces {
			if closed[comp[f]] && !slices.Equal(l, saved[f]) {
				t.Fatalf("%s: face %d is %v after re-orienting, was %v", c.file, f, l, saved[f])
			}
		}
		t.Logf("%s: %d -> %d vertices, %d components (%d closed), flipped %d, boundary edges %d, non-manifold edges %d",
			c.file, c.verts, len(s.Verts), rep.Orient.Components, rep.Orient.Closed, rep.Orient.Flipped, rep.Orient.BoundaryEdges, rep.Orient.NonManifoldEdges)
	}
	// The V-HACD duck as a compound of convex pieces, each checked here by
	// brute force: every vertex on or below the plane of every triangle.
	ms, names, err := ReadConvexParts(filepath.Join(realMeshes, "bullet/duck_vhacd.obj"), ByObject, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 5 {
		t.Fatalf("%d convex parts, want 5", len(ms))
	}
	for i, m := range ms {
		if names[i] != fmt.Sprintf("convex_%d", i) {
			t.Fatalf("part %d named %q", i, names[i])
		}
		for f := range m.NumFaces() {
			l := m.Face(f)
			a, b, c := m.Verts[l[0]], m.Verts[l[1]], m.Verts[l[2]]
			n := b.Sub(a).Cross(c.Sub(a))
			n = n.Scale(1 / n.Norm())
			for _, p := range m.Verts {
				if d := p.Sub(a).Dot(n); d > 1e-6 {
					t.Fatalf("part %d: vertex %v is %g above face %d", i, p, d, f)
				}
			}
		}
	}
	// Without the split the same file is one body of five closed pieces,
	// and not convex.
	m, err := ReadFile(filepath.Join(realMeshes, "bullet/duck_vhacd.obj"), nil)
	if err != nil || m.Convex() || math.IsNaN(m.Volume()) {
		t.Fatalf("duck_vhacd as one mesh: %v, convex %v", err, m.Convex())
	}
}
