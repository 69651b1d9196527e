package convex

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// This file holds the test oracles, written without any code of the
// package: an OBJ and workload reader, a separating-axis margin over face
// normals and Minkowski-face edge pairs (../shared/bench/FORMAT.md Sec. 8)
// and a brute-force distance.

const samplesDir = "../testdata/bench-samples"

// readOBJ reads the OBJ subset of the bench format (v and f lines).
func readOBJ(path string) ([]geom.Vec3, [][]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var vs []geom.Vec3
	var fs [][]int
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		fl := strings.Fields(sc.Text())
		if len(fl) == 0 || fl[0] == "#" {
			continue
		}
		switch fl[0] {
		case "v":
			var c [3]float64
			for i := 0; i < 3; i++ {
				c[i], err = strconv.ParseFloat(fl[i+1], 64)
				if err != nil {
					return nil, nil, fmt.Errorf("%s:%d: %v", path, line, err)
				}
			}
			vs = append(vs, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
		case "f":
			var face []int
			for _, t := range fl[1:] {
				i, err := strconv.Atoi(t)
				if err != nil {
					return nil, nil, fmt.Errorf("%s:%d: %v", path, line, err)
				}
				face = append(face, i-1)
			}
			fs = append(fs, face)
		}
	}
	return vs, fs, sc.Err()
}

// sample is a frames workload with its expected narrow answers.
type sample struct {
	name     string
	verts    [][]geom.Vec3 // per body (local)
	faces    [][][]int     // per body
	polys    []*Polytope   // per body
	poses    [][]geom.Pose // [frame][body]
	expected []expectedRow
}

type expectedRow struct {
	frame, a, b int
	hit         bool
	margin      float64
}

func loadSample(t testing.TB, name string) *sample {
	t.Helper()
	dir := filepath.Join(samplesDir, name)
	s := &sample{name: name}
	// Bodies use meshes b<i>.obj in the samples (body i has mesh "b<i>").
	for i := 0; ; i++ {
		p := filepath.Join(dir, "meshes", fmt.Sprintf("b%d.obj", i))
		if _, err := os.Stat(p); err != nil {
			break
		}
		vs, fs, err := readOBJ(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mesh.New(vs, fs, nil)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		poly, err := New(m)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		s.verts = append(s.verts, vs)
		s.faces = append(s.faces, fs)
		s.polys = append(s.polys, poly)
	}
	if len(s.polys) == 0 {
		t.Fatalf("no meshes in %s", dir)
	}
	rows := readCSV(t, filepath.Join(dir, "poses.csv"))
	for _, r := range rows[1:] {
		fr, _ := strconv.Atoi(r[0])
		b, _ := strconv.Atoi(r[1])
		var f [7]float64
		for i := range f {
			f[i], _ = strconv.ParseFloat(r[2+i], 64)
		}
		for len(s.poses) <= fr {
			s.poses = append(s.poses, make([]geom.Pose, len(s.polys)))
		}
		q, _ := geom.Quat{W: f[3], X: f[4], Y: f[5], Z: f[6]}.Normalize()
		s.poses[fr][b] = geom.Pose{P: geom.Vec3{X: f[0], Y: f[1], Z: f[2]}, Q: q}
	}
	rows = readCSV(t, filepath.Join(dir, "expected", "narrow.csv"))
	for _, r := range rows[1:] {
		var e expectedRow
		e.frame, _ = strconv.Atoi(r[0])
		e.a, _ = strconv.Atoi(r[1])
		e.b, _ = strconv.Atoi(r[2])
		e.hit = r[3] == "1"
		e.margin, _ = strconv.ParseFloat(r[4], 64)
		s.expected = append(s.expected, e)
	}
	return s
}

func readCSV(t testing.TB, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		rows = append(rows, strings.Split(l, ","))
	}
	return rows
}

// worldVerts applies pose p (via its matrix, as FORMAT.md Sec. 2 does).
func worldVerts(vs []geom.Vec3, tr geom.Transform) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		out[i] = tr.R.MulVec(v).Add(tr.T)
	}
	return out
}

// body is a convex body in world coordinates for the oracles.
type body struct {
	v     []geom.Vec3
	faces [][]int
}

// faceNormal is Newell's normal of a polygon (not normalised).
func faceNormal(v []geom.Vec3, f []int) geom.Vec3 {
	var n geom.Vec3
	for i := range f {
		a, b := v[f[i]], v[f[(i+1)%len(f)]]
		n.X += (a.Y - b.Y) * (a.Z + b.Z)
		n.Y += (a.Z - b.Z) * (a.X + b.X)
		n.Z += (a.X - b.X) * (a.Y + b.Y)
	}
	return n
}

type satEdge struct {
	p, q   int       // vertex ids
	n1, n2 geom.Vec3 // unit normals of the two faces
}

func edgesOf(b body) []satEdge {
	type key struct{ a, b int }
	first := map[key]geom.Vec3{}
	var out []satEdge
	for _, f := range b.faces {
		n, _ := faceNormal(b.v, f).Normalize()
		for i := range f {
			p, q := f[i], f[(i+1)%len(f)]
			if n2, ok := first[key{q, p}]; ok {
				out = append(out, satEdge{p, q, n, n2})
				delete(first, key{q, p})
			} else {
				first[key{p, q}] = n
			}
		}
	}
	return out
}

// gapAlong returns min over B of d.x - max over A of d.x.
func gapAlong(a, b body, d geom.Vec3) float64 {
	maxA, minB := math.Inf(-1), math.Inf(1)
	for _, v := range a.v {
		maxA = math.Max(maxA, d.Dot(v))
	}
	for _, v := range b.v {
		minB = math.Min(minB, d.Dot(v))
	}
	return minB - maxA
}

// satMargin is the margin of FORMAT.md Sec. 8: the largest gap over unit
// face normals of A and B (both signs) and cross products of edge pairs
// whose Gauss-map arcs cross (Minkowski faces of A - B).
func satMargin(a, b body) float64 {
	best := math.Inf(-1)
	try := func(d geom.Vec3) {
		u, ok := d.Normalize()
		if !ok {
			return
		}
		best = math.Max(best, math.Max(gapAlong(a, b, u), gapAlong(a, b, u.Neg())))
	}
	for _, f := range a.faces {
		try(faceNormal(a.v, f))
	}
	for _, f := range b.faces {
		try(faceNormal(b.v, f))
	}
	ea, eb := edgesOf(a), edgesOf(b)
	for _, x := range ea {
		ba := x.n2.Cross(x.n1)
		for _, y := range eb {
			// Arcs x.n1-x.n2 and -y.n1 - -y.n2 (Gauss map of -B).
			c, d := y.n1.Neg(), y.n2.Neg()
			dc := d.Cross(c)
			cba, dba := c.Dot(ba), d.Dot(ba)
			adc, bdc := x.n1.Dot(dc), x.n2.Dot(dc)
			if cba*dba < 0 && adc*bdc < 0 && cba*bdc > 0 {
				try(b.v[y.q].Sub(b.v[y.p]).Cross(a.v[x.q].Sub(a.v[x.p])))
			}
		}
	}
	return best
}

// closestOnSegment returns the point of segment pq closest to x.
func closestOnSegment(x, p, q geom.Vec3) geom.Vec3 {
	d := q.Sub(p)
	l := d.Dot(d)
	if l == 0 {
		return p
	}
	t := math.Max(0, math.Min(1, x.Sub(p).Dot(d)/l))
	return p.AddScaled(t, d)
}

// pointTriDist: distance from x to triangle abc, by projecting onto the
// plane and testing the three edge half-planes, else the nearest edge.
func pointTriDist(x, a, b, c geom.Vec3) float64 {
	n := b.Sub(a).Cross(c.Sub(a))
	nn := n.Dot(n)
	if nn > 0 {
		y := x.AddScaled(-x.Sub(a).Dot(n)/nn, n)
		in := b.Sub(a).Cross(y.Sub(a)).Dot(n) >= 0 &&
			c.Sub(b).Cross(y.Sub(b)).Dot(n) >= 0 &&
			a.Sub(c).Cross(y.Sub(c)).Dot(n) >= 0
		if in {
			return x.Dist(y)
		}
	}
	return math.Min(x.Dist(closestOnSegment(x, a, b)), math.Min(x.Dist(closestOnSegment(x, b, c)), x.Dist(closestOnSegment(x, c, a))))
}

// segSegDist: distance between segments, by minimising over a dense
// parameter search refined by the exact endpoint cases and the interior
// stationary point.
func segSegDist(p1, q1, p2, q2 geom.Vec3) float64 {
	best := math.Min(math.Min(p1.Dist(closestOnSegment(p1, p2, q2)), q1.Dist(closestOnSegment(q1, p2, q2))),
		math.Min(p2.Dist(closestOnSegment(p2, p1, q1)), q2.Dist(closestOnSegment(q2, p1, q1))))
	d1, d2, r := q1.Sub(p1), q2.Sub(p2), p1.Sub(p2)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	b, c := d1.Dot(d2), d1.Dot(r)
	den := a*e - b*b
	if den > 1e-300 {
		s := (b*f - c*e) / den
		t := (a*f - b*c) / den
		if s >= 0 && s <= 1 && t >= 0 && t <= 1 {
			best = math.Min(best, p1.AddScaled(s, d1).Dist(p2.AddScaled(t, d2)))
		}
	}
	return best
}

// bruteDistance is the distance between two disjoint convex polyhedra:
// the minimum over vertex-face pairs and edge-edge pairs.
func bruteDistance(a, b body) float64 {
	best := math.Inf(1)
	vf := func(x, y body) {
		for _, v := range x.v {
			for _, f := range y.faces {
				for k := 1; k+1 < len(f); k++ {
					best = math.Min(best, pointTriDist(v, y.v[f[0]], y.v[f[k]], y.v[f[k+1]]))
				}
			}
		}
	}
	vf(a, b)
	vf(b, a)
	ea, eb := edgesOf(a), edgesOf(b)
	for _, x := range ea {
		for _, y := range eb {
			best = math.Min(best, segSegDist(a.v[x.p], a.v[x.q], b.v[y.p], b.v[y.q]))
		}
	}
	return best
}

// checkWitness verifies a separating plane against the world vertices:
// A on the negative side, B on the positive side, within rounding.
func checkWitness(pl geom.Plane, a, b body, scale float64) error {
	tol := 1e-13 * scale
	for i, v := range a.v {
		if d := pl.SignedDist(v); d > tol {
			return fmt.Errorf("witness %v: vertex %d of A is %g above", pl, i, d)
		}
	}
	for i, v := range b.v {
		if d := pl.SignedDist(v); d < -tol {
			return fmt.Errorf("witness %v: vertex %d of B is %g below", pl, i, -d)
		}
	}
	return nil
}

// TestSatMarginMatchesSamples checks the oracle against the sample's
// reference margins, and the brute-force distance against the margin.
func TestSatMarginMatchesSamples(t *testing.T) {
	s := loadSample(t, "polytopes-mixed-n10-b50-f40-s1")
	bad := 0
	for i, e := range s.expected {
		if i%7 != 0 {
			continue
		}
		ta, tb := s.poses[e.frame][e.a].Transform(), s.poses[e.frame][e.b].Transform()
		m := satMargin(body{worldVerts(s.verts[e.a], ta), s.faces[e.a]}, body{worldVerts(s.verts[e.b], tb), s.faces[e.b]})
		// The reference stops at the first clearly separating axis, so for
		// separated pairs its margin is only a lower bound of ours.
		if (e.margin <= 0 && math.Abs(m-e.margin) > 1e-9) || (e.margin > 0 && !(m >= e.margin-1e-12)) {
			bad++
			if bad < 5 {
				t.Errorf("frame %d pair %d,%d: margin %v, expected %v", e.frame, e.a, e.b, m, e.margin)
			}
		}
		if m > 0 {
			d := bruteDistance(body{worldVerts(s.verts[e.a], ta), s.faces[e.a]}, body{worldVerts(s.verts[e.b], tb), s.faces[e.b]})
			if d < m-1e-12 {
				t.Errorf("frame %d pair %d,%d: distance %v below margin %v", e.frame, e.a, e.b, d, m)
			}
		}
	}
}
