package mesh_test

// Seeded generators of test meshes for the adjacency and validation
// property tests. They are written from scratch here (not package shapes)
// so the tests share no code with what they test.

import (
	"math"
	"math/rand/v2"

	"github.com/collide-go/collide/geom"
)

// soup is a candidate mesh: vertices and face loops.
type soup struct {
	name  string
	verts []geom.Vec3
	faces [][]int
}

func (s soup) clone() soup {
	c := soup{name: s.name, verts: append([]geom.Vec3(nil), s.verts...)}
	for _, f := range s.faces {
		c.faces = append(c.faces, append([]int(nil), f...))
	}
	return c
}

func randUnit(rng *rand.Rand) geom.Vec3 {
	for {
		v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if n := v.Norm(); n > 1e-3 {
			return v.Scale(1 / n)
		}
	}
}

// genTorus is a torus of m x n quadrilaterals, optionally split into
// triangles along a random diagonal each.
func genTorus(rng *rand.Rand) soup {
	R := 0.5 + 2*rng.Float64()
	return torusSoup(rng, 3+rng.IntN(14), 3+rng.IntN(14), R, R*(0.1+0.8*rng.Float64()), rng.IntN(2) == 0)
}

// torusSoup is a torus of m x n quadrilaterals about the z axis, each split
// into two triangles along a random diagonal when tri is set.
func torusSoup(rng *rand.Rand, m, n int, R, r float64, tri bool) soup {
	s := soup{name: "torus"}
	for i := 0; i < m; i++ {
		th := 2 * math.Pi * float64(i) / float64(m)
		for j := 0; j < n; j++ {
			ph := 2 * math.Pi * float64(j) / float64(n)
			s.verts = append(s.verts, geom.Vec3{X: (R + r*math.Cos(ph)) * math.Cos(th), Y: (R + r*math.Cos(ph)) * math.Sin(th), Z: r * math.Sin(ph)})
		}
	}
	id := func(i, j int) int { return (i%m)*n + j%n }
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			a, b, c, d := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			switch {
			case !tri:
				s.faces = append(s.faces, []int{a, b, c, d})
			case rng.IntN(2) == 0:
				s.faces = append(s.faces, []int{a, b, c}, []int{a, c, d})
			default:
				s.faces = append(s.faces, []int{a, b, d}, []int{b, c, d})
			}
		}
	}
	return s
}

// genGridBox is a box whose faces are divided into grids of quadrilaterals
// (coplanar neighbours, collinear vertices along the box edges).
func genGridBox(rng *rand.Rand) soup {
	nx, ny, nz := 1+rng.IntN(4), 1+rng.IntN(4), 1+rng.IntN(4)
	size := geom.Vec3{X: 0.1 + rng.Float64(), Y: 0.1 + rng.Float64(), Z: 0.1 + rng.Float64()}
	s := soup{name: "gridbox"}
	idx := map[[3]int]int{}
	id := func(i, j, k int) int {
		key := [3]int{i, j, k}
		if v, ok := idx[key]; ok {
			return v
		}
		idx[key] = len(s.verts)
		s.verts = append(s.verts, geom.Vec3{X: size.X * float64(i) / float64(nx), Y: size.Y * float64(j) / float64(ny), Z: size.Z * float64(k) / float64(nz)})
		return idx[key]
	}
	quad := func(flip bool, a, b, c, d int) {
		if flip {
			s.faces = append(s.faces, []int{d, c, b, a})
		} else {
			s.faces = append(s.faces, []int{a, b, c, d})
		}
	}
	for _, side := range []struct {
		fix  int
		flip bool
	}{{nx, false}, {0, true}} {
		for j := 0; j < ny; j++ {
			for k := 0; k < nz; k++ {
				i := side.fix
				quad(side.flip, id(i, j, k), id(i, j+1, k), id(i, j+1, k+1), id(i, j, k+1))
			}
		}
	}
	for _, side := range []struct {
		fix  int
		flip bool
	}{{ny, false}, {0, true}} {
		for k := 0; k < nz; k++ {
			for i := 0; i < nx; i++ {
				j := side.fix
				quad(side.flip, id(i, j, k), id(i, j, k+1), id(i+1, j, k+1), id(i+1, j, k))
			}
		}
	}
	for _, side := range []struct {
		fix  int
		flip bool
	}{{nz, false}, {0, true}} {
		for i := 0; i < nx; i++ {
			for j := 0; j < ny; j++ {
				k := side.fix
				quad(side.flip, id(i, j, k), id(i+1, j, k), id(i+1, j+1, k), id(i, j+1, k))
			}
		}
	}
	return s
}

// genMixed returns a torus (i%3 == 0), a grid box (i%3 == 1) or other(rng).
func genMixed(rng *rand.Rand, i int, other func(*rand.Rand) soup) soup {
	switch i % 3 {
	case 0:
		return genTorus(rng)
	case 1:
		return genGridBox(rng)
	}
	return other(rng)
}

// genHull is the convex hull of 4..14 random points on an ellipsoid, found
// by brute force over all triples (points on an ellipsoid are all extreme,
// and random ones are in general position).
func genHull(rng *rand.Rand) soup {
	n := 4 + rng.IntN(11)
	ax := geom.Vec3{X: 0.2 + rng.Float64(), Y: 0.2 + rng.Float64(), Z: 0.2 + rng.Float64()}
	s := soup{name: "hull"}
	for i := 0; i < n; i++ {
		s.verts = append(s.verts, randUnit(rng).Mul(ax))
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				a, b, c := s.verts[i], s.verts[j], s.verts[k]
				nrm := b.Sub(a).Cross(c.Sub(a))
				pos, neg := 0, 0
				for l, p := range s.verts {
					if l == i || l == j || l == k {
						continue
					}
					if d := nrm.Dot(p.Sub(a)); d > 0 {
						pos++
					} else if d < 0 {
						neg++
					}
				}
				switch {
				case pos == 0:
					s.faces = append(s.faces, []int{i, j, k})
				case neg == 0:
					s.faces = append(s.faces, []int{i, k, j})
				}
			}
		}
	}
	return s
}

// relabel permutes the vertices and faces of s and rotates every face loop
// to start at a random corner; the mesh is the same.
func relabel(rng *rand.Rand, s soup) soup {
	perm := rng.Perm(len(s.verts))
	out := soup{name: s.name + "+relabel", verts: make([]geom.Vec3, len(s.verts))}
	for i, v := range s.verts {
		out.verts[perm[i]] = v
	}
	for _, fi := range rng.Perm(len(s.faces)) {
		f := s.faces[fi]
		r := rng.IntN(len(f))
		l := make([]int, len(f))
		for k := range f {
			l[k] = perm[f[(k+r)%len(f)]]
		}
		out.faces = append(out.faces, l)
	}
	return out
}

// deleteFaces removes 1..3 random faces (an open mesh).
func deleteFaces(rng *rand.Rand, s soup) soup {
	out := s.clone()
	out.name += "+open"
	for k := 1 + rng.IntN(3); k > 0 && len(out.faces) > 1; k-- {
		i := rng.IntN(len(out.faces))
		out.faces = append(out.faces[:i], out.faces[i+1:]...)
	}
	return out
}

// flipFace reverses one face (inconsistent orientation).
func flipFace(rng *rand.Rand, s soup) (soup, int) {
	out := s.clone()
	out.name += "+flip"
	i := rng.IntN(len(out.faces))
	f := out.faces[i]
	for a, b := 0, len(f)-1; a < b; a, b = a+1, b-1 {
		f[a], f[b] = f[b], f[a]
	}
	return out, i
}

// addFin adds a triangle on an existing edge (three faces on that edge).
func addFin(rng *rand.Rand, s soup) (soup, [2]int) {
	out := s.clone()
	out.name += "+fin"
	f := out.faces[rng.IntN(len(out.faces))]
	k := rng.IntN(len(f))
	a, b := f[k], f[(k+1)%len(f)]
	mid := out.verts[a].Add(out.verts[b]).Scale(0.5)
	out.verts = append(out.verts, mid.Add(randUnit(rng).Scale(out.verts[a].Dist(out.verts[b]))))
	out.faces = append(out.faces, []int{b, a, len(out.verts) - 1})
	return out, [2]int{a, b}
}

// bowtie joins two copies of s at one vertex: every edge keeps two faces
// but the shared vertex has two separate fans.
func bowtie(rng *rand.Rand, s soup) (soup, int) {
	out := s.clone()
	out.name += "+bowtie"
	v := rng.IntN(len(s.verts))
	// Second copy: point-reflected through vertex v so the copies touch
	// only there (for a convex s), and reindexed with v shared. A point
	// reflection in 3-D reverses orientation, so the loops are reversed.
	p := s.verts[v]
	idx := make([]int, len(s.verts))
	for i, q := range s.verts {
		if i == v {
			idx[i] = v
			continue
		}
		idx[i] = len(out.verts)
		out.verts = append(out.verts, p.Scale(2).Sub(q))
	}
	for _, f := range s.faces {
		l := make([]int, len(f))
		for k, u := range f {
			l[len(f)-1-k] = idx[u]
		}
		out.faces = append(out.faces, l)
	}
	return out, v
}

// randomSoup is disjoint random triangles and planar polygons.
func randomSoup(rng *rand.Rand) soup {
	return polygonSoup(rng, "soup", 10, 10, 3, 4, func(j, k int) (ang, r float64) {
		return 2 * math.Pi * (float64(j) + 0.5*rng.Float64()) / float64(k), 1
	})
}

// polygonSoup is 1 to maxFaces planar polygons of minK to
// minK+kSpan-1 vertices, with centres within spread of the origin in random
// planes; vertex j of k is at the angle and radius polar(j, k) about its
// centre.
func polygonSoup(rng *rand.Rand, name string, maxFaces int, spread float64, minK, kSpan int, polar func(j, k int) (ang, r float64)) soup {
	s := soup{name: name}
	for f := 1 + rng.IntN(maxFaces); f > 0; f-- {
		c := randUnit(rng).Scale(spread * rng.Float64())
		u, w := randUnit(rng).Orthonormal()
		k := minK + rng.IntN(kSpan)
		var l []int
		for j := 0; j < k; j++ {
			ang, r := polar(j, k)
			l = append(l, len(s.verts))
			s.verts = append(s.verts, c.Add(u.Scale(r*math.Cos(ang))).Add(w.Scale(r*math.Sin(ang))))
		}
		s.faces = append(s.faces, l)
	}
	return s
}
