package meshquery

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/internal/testutil"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

const sampleDir = "../testdata/bench-samples/placements-env-rob-fcl-q60-s7"

func mustTree(t testing.TB, m *mesh.Mesh) *Tree {
	t.Helper()
	tr, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// oracleOf puts both meshes' triangles in A's frame, B's vertices by
// R_A^T((R_B x + p_B) - p_A).
func oracleOf(ma, mb *mesh.Mesh, pa, pb geom.Pose) *oracleMesh {
	o := &oracleMesh{}
	ra, rb := pa.Q.Mat3(), pb.Q.Mat3()
	for _, t := range ma.Triangles(nil) {
		o.a = append(o.a, [3]geom.Vec3{ma.Verts[t.V[0]], ma.Verts[t.V[1]], ma.Verts[t.V[2]]})
	}
	toA := func(x geom.Vec3) geom.Vec3 {
		w := rb.MulVec(x).Add(pb.P)
		if pa.P == (geom.Vec3{}) && ra == geom.Identity() {
			return w
		}
		return ra.Transpose().MulVec(w.Sub(pa.P))
	}
	for _, t := range mb.Triangles(nil) {
		o.b = append(o.b, [3]geom.Vec3{toA(mb.Verts[t.V[0]]), toA(mb.Verts[t.V[1]]), toA(mb.Verts[t.V[2]])})
	}
	return o
}

func randQuat(r *rand.Rand) geom.Quat {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	q, _ = q.Normalize()
	return q
}

// TestTriTriOracle compares the exact triangle-triangle test with the
// math/big oracle on random pairs, half of them on a coarse integer grid
// (coplanar, touching, shared-vertex and collinear-side cases abound).
func TestTriTriOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	hits, n := 0, 8000
	grid := func() geom.Vec3 {
		return geom.Vec3{X: float64(r.IntN(4)), Y: float64(r.IntN(4)), Z: float64(r.IntN(3))}
	}
	cont := func() geom.Vec3 {
		return geom.Vec3{X: r.Float64()*2 - 1, Y: r.Float64()*2 - 1, Z: r.Float64()*2 - 1}
	}
	for i := 0; i < n; i++ {
		var s, u [3]geom.Vec3
		gen := cont
		if i%2 == 0 {
			gen = grid
		}
		for {
			s = [3]geom.Vec3{gen(), gen(), gen()}
			u = [3]geom.Vec3{gen(), gen(), gen()}
			if !collinear(s[0], s[1], s[2]) && !collinear(u[0], u[1], u[2]) {
				break
			}
		}
		if i%2 == 1 {
			// Shift to make about half of the continuous pairs meet.
			d := geom.Vec3{X: 0.8 * r.Float64()}
			for k := range u {
				u[k] = u[k].Add(d)
			}
		}
		want := oracleTriTri(s, u)
		got := triTriIntersect(s[0], s[1], s[2], u[0], u[1], u[2])
		if got != want {
			t.Fatalf("pair %d: got %v, oracle %v\n s=%#v\n u=%#v", i, got, want, s, u)
		}
		if got2 := triTriIntersect(u[2], u[0], u[1], s[1], s[0], s[2]); got2 != want {
			t.Fatalf("pair %d swapped and permuted: got %v, oracle %v\n s=%#v\n u=%#v", i, got2, want, s, u)
		}
		if want {
			hits++
			// A common point lies on both triangles (float accuracy).
			p := intersectionPoint(&s, &u)
			if d := oPointTri(p, s[0], s[1], s[2]) + oPointTri(p, u[0], u[1], u[2]); d > 1e-9 {
				t.Fatalf("pair %d: intersection point %v is %g off the triangles", i, p, d)
			}
		} else if d, e := triTriClosest(&s, &u, math.Inf(1)), oracleTriDist(s, u); math.Abs(math.Sqrt(d.d2)-e) > 1e-12 {
			t.Fatalf("pair %d: distance %v, oracle %v", i, math.Sqrt(d.d2), e)
		}
	}
	rate := float64(hits) / float64(n)
	t.Logf("hit rate %.3f", rate)
	if rate < 0.3 || rate > 0.7 {
		t.Fatalf("hit rate %.3f outside [0.3, 0.7]", rate)
	}
}

// TestTriTriDegenerate covers the touching configurations one by one.
func TestTriTriDegenerate(t *testing.T) {
	v := func(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }
	base := [3]geom.Vec3{v(0, 0, 0), v(2, 0, 0), v(0, 2, 0)}
	cases := []struct {
		name string
		u    [3]geom.Vec3
	}{
		{"shared vertex", [3]geom.Vec3{v(0, 0, 0), v(-1, -1, 1), v(-1, 0, 2)}},
		{"vertex on face", [3]geom.Vec3{v(0.5, 0.5, 0), v(1, 1, 1), v(0, 1, 1)}},
		{"vertex on edge", [3]geom.Vec3{v(1, 0, 0), v(1, -1, 1), v(2, -1, -1)}},
		{"edge on edge crossing", [3]geom.Vec3{v(1, -1, 0), v(1, 1, 0), v(1, 0, 3)}},
		{"coplanar overlap", [3]geom.Vec3{v(0.5, 0.5, 0), v(3, 0.5, 0), v(0.5, 3, 0)}},
		{"coplanar edge contact", [3]geom.Vec3{v(2, 0, 0), v(0, 2, 0), v(2, 2, 0)}},
		{"coplanar apart", [3]geom.Vec3{v(2, 0.5, 0), v(0.5, 2, 0), v(2, 2, 0)}},
		{"coplanar contained", [3]geom.Vec3{v(0.1, 0.1, 0), v(0.5, 0.1, 0), v(0.1, 0.5, 0)}},
		{"parallel apart", [3]geom.Vec3{v(0, 0, 1e-300), v(2, 0, 1e-300), v(0, 2, 1e-300)}},
		{"piercing", [3]geom.Vec3{v(0.5, 0.5, -1), v(0.5, 0.5, 1), v(5, 5, 0)}},
		{"near miss", [3]geom.Vec3{v(1.0000000000000002, 1, -1), v(1.0000000000000002, 1, 1), v(5, 5, 0)}},
	}
	for _, c := range cases {
		want := oracleTriTri(base, c.u)
		if got := triTriIntersect(base[0], base[1], base[2], c.u[0], c.u[1], c.u[2]); got != want {
			t.Errorf("%s: got %v, oracle %v", c.name, got, want)
		}
		if got := triTriIntersect(c.u[0], c.u[1], c.u[2], base[0], base[1], base[2]); got != want {
			t.Errorf("%s (swapped): got %v, oracle %v", c.name, got, want)
		}
	}
	// Degenerate triangles (collinear corners): sides only.
	seg := [3]geom.Vec3{v(0.5, 0.5, -1), v(0.5, 0.5, 0), v(0.5, 0.5, 1)}
	if !triTriIntersect(base[0], base[1], base[2], seg[0], seg[1], seg[2]) {
		t.Error("collinear triangle through the face: no hit")
	}
	seg2 := [3]geom.Vec3{v(3, 3, -1), v(3, 3, 0), v(3, 3, 1)}
	if triTriIntersect(seg2[0], seg2[1], seg2[2], base[0], base[1], base[2]) {
		t.Error("collinear triangle beside the face: hit")
	}
}

// checkPlacement runs Intersect, AppendPairs and Distance on one
// placement and checks them against brute force (AppendPairs: the same
// set of intersecting pairs).
func checkPlacement(t *testing.T, q *Scratch, ma, mb *mesh.Mesh, a, b *Tree, pa, pb geom.Pose, label string) bool {
	t.Helper()
	ta, tb := pa.Transform(), pb.Transform()
	o := oracleOf(ma, mb, pa, pb)
	want := o.bruteHit()
	hit, err := q.Intersect(a, &ta, b, &tb)
	if err != nil {
		t.Fatal(err)
	}
	if hit != want {
		t.Fatalf("%s: Intersect %v, brute force %v (A %v, B %v)", label, hit, want, pa, pb)
	}
	pairs, err := q.AppendPairs(a, &ta, b, &tb, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Every pair intersects, none twice, and as many as brute force
	// counts: the traversal loses none.
	seen := map[Pair]bool{}
	for _, p := range pairs {
		if seen[p] || !oracleTriTri(o.a[p.A], o.b[p.B]) {
			t.Fatalf("%s: pair %v repeated or does not intersect", label, p)
		}
		seen[p] = true
	}
	if n := o.bruteCount(0); len(pairs) != n {
		t.Fatalf("%s: %d pairs, brute force %d", label, len(pairs), n)
	}
	res, err := q.Distance(a, &ta, b, &tb, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Hit != want {
		t.Fatalf("%s: Distance hit %v, brute force %v", label, res.Hit, want)
	}
	scale := (a.Scale() + b.Scale()) / 2
	if want {
		if d := oPointTri(ta.ApplyInv(res.PointA), o.a[res.TriA][0], o.a[res.TriA][1], o.a[res.TriA][2]); d > 1e-9*scale {
			t.Fatalf("%s: hit point %v is %g off triangle %d of A", label, res.PointA, d, res.TriA)
		}
		return true
	}
	d := o.bruteDist()
	if math.Abs(res.Dist-d) > 1e-9*scale {
		t.Fatalf("%s: Distance %.17g, brute force %.17g (A %v, B %v)", label, res.Dist, d, pa, pb)
	}
	// The closest points lie on the named triangles and are Dist apart.
	pA, pB := ta.ApplyInv(res.PointA), ta.ApplyInv(res.PointB)
	ea := oPointTri(pA, o.a[res.TriA][0], o.a[res.TriA][1], o.a[res.TriA][2])
	eb := oPointTri(pB, o.b[res.TriB][0], o.b[res.TriB][1], o.b[res.TriB][2])
	if ea > 1e-9*scale || eb > 1e-9*scale || math.Abs(res.PointA.Dist(res.PointB)-res.Dist) > 1e-9*scale {
		t.Fatalf("%s: closest points %v %v off their triangles by %g, %g or not %g apart", label, res.PointA, res.PointB, ea, eb, res.Dist)
	}
	return false
}

// TestRandomPlacements compares every query with brute force on random
// placements of a torus against Buss's car and of two tori, with the hit
// rate asserted.
func TestRandomPlacements(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var q Scratch
	hits, n := 0, 0
	randomPlacements(t, r, func() float64 { return 0.9 * math.Sqrt(r.Float64()) }, func(ma, mb *mesh.Mesh, a, b *Tree, pa, pb geom.Pose) {
		if checkPlacement(t, &q, ma, mb, a, b, pa, pb, fmt.Sprintf("placement %d", n)) {
			hits++
		}
		n++
	})
	rate := float64(hits) / float64(n)
	t.Logf("%d placements, hit rate %.3f", n, rate)
	if rate < 0.3 || rate > 0.7 {
		t.Fatalf("hit rate %.3f outside [0.3, 0.7]", rate)
	}
}

// randomPlacements calls f with 60 random placements of each of a torus
// against Buss's car, two tori and two cars: A near the origin, B at a
// random direction from it and dist() times the sum of their radii.
func randomPlacements(t *testing.T, r *rand.Rand, dist func() float64, f func(ma, mb *mesh.Mesh, a, b *Tree, pa, pb geom.Pose)) {
	torus := shapes.Torus(1, 0.35, 20, 15)
	car := shapes.Car()
	for _, pair := range [][2]*mesh.Mesh{{torus, car}, {torus, torus}, {car, car}} {
		ma, mb := pair[0], pair[1]
		a, b := mustTree(t, ma), mustTree(t, mb)
		reach := ma.Radius() + mb.Radius()
		for i := 0; i < 60; i++ {
			pa := geom.Pose{P: geom.Vec3{X: r.Float64() - 0.5, Y: r.Float64() - 0.5, Z: r.Float64() - 0.5}, Q: randQuat(r)}
			d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
			d, _ = d.Normalize()
			pb := geom.Pose{P: pa.P.Add(d.Scale(reach * dist())), Q: randQuat(r)}
			f(ma, mb, a, b, pa, pb)
		}
	}
}

type placement struct {
	id           int
	meshA, meshB string
	pa, pb       geom.Pose
}

// readPlacements parses a placements.csv (benchmark format Sec. 6a).
func readPlacements(t testing.TB, path string) []placement {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var out []placement
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			continue
		}
		rec := strings.Split(sc.Text(), ",")
		x := make([]float64, len(rec))
		for i := 3; i < len(rec); i++ {
			if x[i], err = strconv.ParseFloat(rec[i], 64); err != nil {
				t.Fatalf("%s:%d: %v", path, line+1, err)
			}
		}
		id, _ := strconv.Atoi(rec[0])
		pose := func(k int) geom.Pose {
			q, _ := geom.Quat{W: x[k+3], X: x[k+4], Y: x[k+5], Z: x[k+6]}.Normalize()
			return geom.Pose{P: geom.Vec3{X: x[k], Y: x[k+1], Z: x[k+2]}, Q: q}
		}
		out = append(out, placement{id, rec[1], rec[2], pose(3), pose(10)})
	}
	return out
}

// TestSamplePlacements checks FCL's env/rob placements against the
// sample's reference answers and against brute force.
func TestSamplePlacements(t *testing.T) {
	for _, dir := range []string{sampleDir, "../testdata/bench-samples/placements-duck-low_poly_bunny-q40-s21"} {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkSample(t, dir) })
	}
}

// checkSample runs Distance on every placement of the workload in dir
// against its expected answers (hit, and distance within 1e-9 of the
// scale) and, on every placement (every tenth with -short), against the
// brute-force oracles.
func checkSample(t *testing.T, dir string) {
	ps := readPlacements(t, filepath.Join(dir, "placements.csv"))
	meshes, trees := map[string]*mesh.Mesh{}, map[string]*Tree{}
	for _, name := range []string{ps[0].meshA, ps[0].meshB} {
		meshes[name] = testutil.ReadMesh(t, filepath.Join(dir, "meshes", name+".obj"))
		trees[name] = mustTree(t, meshes[name])
	}
	exp := map[int][3]string{}
	f, err := os.ReadFile(filepath.Join(dir, "expected/meshdist.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(f)), "\n")[1:] {
		rec := strings.Split(l, ",")
		id, _ := strconv.Atoi(rec[0])
		exp[id] = [3]string{rec[1], rec[2], rec[3]}
	}
	var q Scratch
	short := testing.Short()
	hits := 0
	for k, p := range ps {
		ma, mb, a, b := meshes[p.meshA], meshes[p.meshB], trees[p.meshA], trees[p.meshB]
		ta, tb := p.pa.Transform(), p.pb.Transform()
		res, err := q.Distance(a, &ta, b, &tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := exp[p.id]
		if (e[0] == "1") != res.Hit {
			t.Fatalf("placement %d: hit %v, expected %s", p.id, res.Hit, e[0])
		}
		if res.Hit {
			hits++
		} else {
			d, _ := strconv.ParseFloat(e[1], 64)
			scale, _ := strconv.ParseFloat(e[2], 64)
			if math.Abs(res.Dist-d) > 1e-9*scale {
				t.Fatalf("placement %d: dist %.17g, expected %.17g", p.id, res.Dist, d)
			}
		}
		if !short || k%10 == 0 {
			checkPlacement(t, &q, ma, mb, a, b, p.pa, p.pb, fmt.Sprintf("placement %d", p.id))
		}
	}
	if hits < len(ps)/5 || hits > len(ps)*4/5 {
		t.Errorf("%d hits of %d placements, want 20-80%%", hits, len(ps))
	}
}

// TestDuckBunny checks random placements of Bullet's duck against parry's
// low-poly bunny with brute force, hit rate asserted.
func TestDuckBunny(t *testing.T) {
	duck := testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj")
	bunny := testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj")
	a, b := mustTree(t, duck), mustTree(t, bunny)
	r := rand.New(rand.NewPCG(5, 6))
	n := 16
	ca, cb := duck.Bounds().Center(), bunny.Bounds().Center()
	reach := a.Scale() + b.Scale()
	var q Scratch
	hits := 0
	for i := 0; i < n; i++ {
		qa, qb := randQuat(r), randQuat(r)
		pa := geom.Pose{P: qa.Rotate(ca).Neg(), Q: qa} // duck centred at the origin
		d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		d, _ = d.Normalize()
		pb := geom.Pose{P: qb.Rotate(cb).Neg().Add(d.Scale(reach * (0.4 + 0.4*r.Float64()))), Q: qb}
		if checkPlacement(t, &q, duck, bunny, a, b, pa, pb, fmt.Sprintf("duck-bunny %d", i)) {
			hits++
		}
	}
	t.Logf("hit rate %.2f", float64(hits)/float64(n))
	if rate := float64(hits) / float64(n); rate < 0.3 || rate > 0.7 {
		t.Fatalf("hit rate %.2f outside [0.3, 0.7]", rate)
	}
}

// TestNodeBounds checks the traversals' node tests on the duck and the
// bunny against brute force over the nodes' triangles (B's corners taken
// to A's frame by the oracle's own formula): the distance bound never
// exceeds the least triangle distance, and the overlap test never
// separates two nodes with an intersecting triangle pair.
func TestNodeBounds(t *testing.T) {
	duck := testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj")
	bunny := testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj")
	a, b := mustTree(t, duck), mustTree(t, bunny)
	r := rand.New(rand.NewPCG(5, 6))
	ca, cb := duck.Bounds().Center(), bunny.Bounds().Center()
	var q Scratch
	// Nodes of at most 8 triangles, where the bounds decide the search.
	small := func(tr *Tree) []int32 {
		var out []int32
		for i := range tr.nodes {
			if tr.nodes[i].count <= 8 {
				out = append(out, int32(i))
			}
		}
		return out
	}
	na, nb := small(a), small(b)
	pairs, touching, tight := 0, 0, 0
	placements := 8
	if testing.Short() {
		placements = 3
	}
	for k := 0; k < placements; k++ {
		pb := placeAround(r, ca, cb, 0.3*(a.Scale()+b.Scale()))
		pa := geom.PoseIdentity()
		ta, tb := pa.Transform(), pb.Transform()
		if err := q.setup(a, &ta, b, &tb); err != nil {
			t.Fatal(err)
		}
		o := oracleOf(duck, bunny, pa, pb)
		// Leaves holding intersecting triangle pairs (brute force).
		var crossing [][2]int32
		for i := range o.a {
			for j := range o.b {
				slo, shi := boxOf(o.a[i])
				ulo, uhi := boxOf(o.b[j])
				if slo.X > uhi.X || ulo.X > shi.X || slo.Y > uhi.Y || ulo.Y > shi.Y || slo.Z > uhi.Z || ulo.Z > shi.Z {
					continue
				}
				if len(crossing) < 20 && oracleTriTri(o.a[i], o.b[j]) {
					crossing = append(crossing, [2]int32{leafOf(a, a.pos[i]), leafOf(b, b.pos[j])})
				}
			}
		}
		for n := 0; n < 100+len(crossing); n++ {
			// The nearest of 40 random nodes of A to a random node of B,
			// then the nearest of 40 random nodes of B to it (centres in
			// A's frame).
			ia, ib := int32(-1), nb[r.IntN(len(nb))]
			best := math.Inf(1)
			for m := 0; m < 40; m++ {
				c := na[r.IntN(len(na))]
				if dd := q.toA(b.nodes[ib].c).Dist(a.nodes[c].c); dd < best {
					ia, best = c, dd
				}
			}
			x := &a.nodes[ia]
			best = math.Inf(1)
			for m := 0; m < 40; m++ {
				c := nb[r.IntN(len(nb))]
				if dd := q.toA(b.nodes[c].c).Dist(x.c); dd < best {
					ib, best = c, dd
				}
			}
			if n >= 100 {
				ia, ib = crossing[n-100][0], crossing[n-100][1]
				x = &a.nodes[ia]
			}
			y := &b.nodes[ib]
			d, hit := math.Inf(1), false
			for i := x.start; i < x.start+x.count; i++ {
				s := o.a[a.tris[i].id]
				for j := y.start; j < y.start+y.count; j++ {
					u := o.b[b.tris[j].id]
					slo, shi := boxOf(s)
					ulo, uhi := boxOf(u)
					apart := slo.X > uhi.X || ulo.X > shi.X || slo.Y > uhi.Y || ulo.Y > shi.Y || slo.Z > uhi.Z || ulo.Z > shi.Z
					if !hit && !apart && oracleTriTri(s, u) {
						hit = true
					}
					d = min(d, oracleTriDist(s, u))
				}
			}
			pairs++
			if lb := q.lowerBound(&a.boxes[ia], ib); lb > d+1e-12*a.Scale() {
				t.Fatalf("placement %d, nodes %d, %d: lower bound %.17g above the distance %.17g", k, ia, ib, lb, d)
			} else if lb > 0.5*d {
				tight++
			}
			if hit {
				touching++
				if !q.overlap(x, y) {
					t.Fatalf("placement %d, nodes %d, %d: intersecting triangles, boxes reported apart", k, ia, ib)
				}
			}
		}
	}
	t.Logf("%d node pairs, %d with intersecting triangles, bound above half the distance on %d", pairs, touching, tight)
	if touching < pairs/20 || touching > pairs*9/10 || tight < pairs/4 {
		t.Errorf("%d of %d node pairs intersecting and %d with a bound above half the distance: the test does not exercise the bounds", touching, pairs, tight)
	}
}

// leafOf returns the leaf of tr holding BVH position p.
func leafOf(tr *Tree, p int32) int32 {
	for i := range tr.nodes {
		if n := &tr.nodes[i]; n.left < 0 && n.start <= p && p < n.start+n.count {
			return int32(i)
		}
	}
	return -1
}

// checkSeparation compares Separation, with every option, against the brute-force oracles (math/big triangle tests, the
// fifteen feature distances) at one placement, and returns the true
// distance (0 when the surfaces cross).
func checkSeparation(t *testing.T, q *Scratch, a, b *Tree, ta, tb *geom.Transform, o *oracleMesh, pad float64, label string) float64 {
	t.Helper()
	hit := o.bruteHit()
	d := 0.0
	if !hit {
		d = o.bruteDist()
	}
	tol := 1e-9 * (a.Scale() + b.Scale())
	for k := range 4 {
		opt := SeparationOptions{Cross: k&1 != 0, Exact: k&2 != 0}
		pr, bound, err := q.Separation(a, ta, b, tb, pad, &opt)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		switch pr {
		case Apart:
			if hit || d <= pad || !(bound > pad) || bound > d+tol {
				t.Fatalf("%s (%+v): apart with bound %.17g, pad %.17g; brute force hit %v, distance %.17g", label, opt, bound, pad, hit, d)
			}
		case Crossing:
			if !hit {
				t.Fatalf("%s (%+v): crossing, brute force distance %.17g", label, opt, d)
			}
		case Within:
			if opt.Cross && hit {
				t.Fatalf("%s (%+v): within, brute force finds the surfaces crossing", label, opt)
			}
			if opt.Exact && d > pad+tol {
				t.Fatalf("%s (%+v): within, brute force distance %.17g for pad %.17g", label, opt, d, pad)
			}
		default:
			t.Fatalf("%s: answer %v", label, pr)
		}
		if opt.Cross && pr == Crossing != hit {
			t.Fatalf("%s (%+v): %v, brute force hit %v", label, opt, pr, hit)
		}
	}
	return d
}

// TestSeparationOracle checks Separation on random placements of a
// torus, Buss's car and two tori against brute force, with pads drawn
// so that about half the placements are within the pad (crossing
// included).
func TestSeparationOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	var q Scratch
	within, apart, n := 0, 0, 0
	randomPlacements(t, r, func() float64 { return 0.55 + 0.5*r.Float64() }, func(ma, mb *mesh.Mesh, a, b *Tree, pa, pb geom.Pose) {
		ta, tb := pa.Transform(), pb.Transform()
		pad := 0.2 * (ma.Radius() + mb.Radius()) * r.Float64()
		dist := checkSeparation(t, &q, a, b, &ta, &tb, oracleOf(ma, mb, pa, pb), pad, fmt.Sprintf("placement %d", n))
		pr, _, _ := q.Separation(a, &ta, b, &tb, pad, &SeparationOptions{Cross: true})
		if dist <= pad {
			within++
		}
		if pr == Apart {
			apart++
		}
		n++
	})
	t.Logf("%d placements: %d within the pad, %d proved apart", n, within, apart)
	if rate := float64(within) / float64(n); rate < 0.3 || rate > 0.7 {
		t.Fatalf("%d of %d placements within the pad, want 30-70%%", within, n)
	}
	if apart < (n-within)/2 {
		t.Fatalf("only %d of the %d placements beyond the pad proved apart", apart, n-within)
	}
}

// TestSeparationErrors: a bad pad or pose is an error naming it.
func TestSeparationErrors(t *testing.T) {
	tr := mustTree(t, shapes.Box(geom.V(1, 1, 1)))
	id := geom.TransformIdentity()
	var q Scratch
	for _, pad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, _, err := q.Separation(tr, &id, tr, &id, pad, nil); !errors.Is(err, ErrInput) {
			t.Errorf("pad %v: error %v, want ErrInput", pad, err)
		}
	}
	if _, _, err := q.Separation(tr, nil, tr, &id, 0, nil); !errors.Is(err, ErrInput) {
		t.Errorf("nil transform: error %v, want ErrInput", err)
	}
}

// TestSeparationAllocs: a warm query allocates nothing.
func TestSeparationAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	a, b := mustTree(t, shapes.Torus(1, 0.35, 20, 15)), mustTree(t, shapes.Car())
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.V(1.2, 0.3, 0.1), Q: geom.QuatAxisAngle(geom.V(1, 2, 3), 0.7)}.Transform()
	var q Scratch
	opt := SeparationOptions{Cross: true, Exact: true}
	run := func() { q.Separation(a, &ta, b, &tb, 0.05, &opt) }
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Fatalf("%v allocations per query", n)
	}
}
