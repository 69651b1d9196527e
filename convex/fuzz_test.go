package convex

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// floats decodes up to n float64 from data (8 bytes each, little endian);
// missing values are 0.
func floats(data []byte, n int) []float64 {
	out := make([]float64, n)
	for i := 0; i < n && 8*(i+1) <= len(data); i++ {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out
}

func fuzzSeed(vals ...float64) []byte {
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

// FuzzFromPoints builds polytopes from arbitrary points: either an error
// or a polytope whose supports agree with a scan of its vertices.
func FuzzFromPoints(f *testing.F) {
	f.Add(fuzzSeed(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.2, 0.2, 0.2))
	f.Add(fuzzSeed(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0))                      // coplanar
	f.Add(fuzzSeed(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))                      // equal points
	f.Add(fuzzSeed(0, 0, 0, math.NaN(), 0, 0, 0, 1, 0, 0, 0, 1))             // NaN
	f.Add(fuzzSeed(0, 0, 0, 1e300, 0, 0, 0, 1e-300, 0, 0, 0, 1, 5, 5, 5, 1)) // extreme scales
	f.Fuzz(func(t *testing.T, data []byte) {
		n := min(len(data)/24, 64)
		fl := floats(data, 3*n)
		pts := make([]geom.Vec3, n)
		for i := range pts {
			pts[i] = geom.Vec3{X: fl[3*i], Y: fl[3*i+1], Z: fl[3*i+2]}
		}
		p, err := FromPoints(pts)
		if err != nil {
			return
		}
		// Needles and slivers thinner than 1e-7 of their diameter are
		// outside the hull's documented accuracy (a point sticking out by
		// less than about 1e-8 of the diameter may be merged away), which
		// is more than ConvexTol: the support checks below do not apply.
		if b := p.Mesh().Bounds(); min(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y, b.Max.Z-b.Min.Z) < 1e-7*b.Diagonal() {
			return
		}
		for _, d := range []geom.Vec3{{X: 1}, {Y: -1}, {X: 1, Y: 2, Z: -3}, {X: -0.3, Y: 0.1, Z: 0.9}} {
			_, want := p.SupportBrute(d)
			// Hill climbing is exact on a convex polytope; the hull is
			// convex within the mesh's tolerance (a vertex may lie up to
			// ConvexTol outside a face plane), so a climb may stop that
			// much short (seen at coordinates of 1e-76 whose digits differ
			// far below the tolerance).
			tol := p.Mesh().ConvexTol() * (math.Abs(d.X) + math.Abs(d.Y) + math.Abs(d.Z))
			if _, h := p.Support(d); h < want-tol {
				t.Fatalf("table support %v < brute %v along %v", h, want, d)
			}
			if _, h := p.SupportDK(d); h < want-tol {
				t.Fatalf("DK support %v < brute %v along %v", h, want, d)
			}
			// The vector scan does SupportBrute's arithmetic (equal unless
			// the compiler fuses SupportBrute's multiply-adds).
			eps := 1e-14 * (math.Abs(d.X) + math.Abs(d.Y) + math.Abs(d.Z)) * p.Radius()
			if i, h, ok := p.supportLoc(d); ok && (math.Abs(h-want) > eps || math.Abs(d.Dot(p.Vertex(int(i)))-want) > eps) {
				t.Fatalf("scan support %d %v, brute %v along %v", i, h, want, d)
			}
		}
	})
}

// FuzzIntersect runs both methods on a fixed pair of polytopes with
// arbitrary transforms (not necessarily rotations, possibly NaN): no
// panic, no hang, and a "separated" answer always comes with a plane that
// separates the transformed vertices.
func FuzzIntersect(f *testing.F) {
	f.Add(fuzzSeed(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1.5, 0, 0))
	f.Add(fuzzSeed(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0))
	f.Add(fuzzSeed(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0.3, 0.2, 0.1))
	f.Add(fuzzSeed(math.NaN(), 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0))
	f.Add(fuzzSeed(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1e300, 0, 0))
	pa, pb := fuzzBodies(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fl := floats(data, 24)
		var ta, tb geom.Transform
		for i := 0; i < 9; i++ {
			ta.R[i/3][i%3] = fl[i]
			tb.R[i/3][i%3] = fl[9+i]
		}
		ta.T = geom.Vec3{X: fl[18], Y: fl[19], Z: fl[20]}
		tb.T = geom.Vec3{X: fl[21], Y: fl[22], Z: fl[23]}
		check := func(name string, st Status, pl geom.Plane) {
			if st != Separated {
				return
			}
			scale := math.Max(1, math.Max(ta.T.MaxAbs(), tb.T.MaxAbs()))
			for i := 0; i < pa.NumVerts(); i++ {
				scale = math.Max(scale, ta.Apply(pa.Vertex(i)).MaxAbs())
			}
			for i := 0; i < pb.NumVerts(); i++ {
				scale = math.Max(scale, tb.Apply(pb.Vertex(i)).MaxAbs())
			}
			for i := 0; i < pa.NumVerts(); i++ {
				if d := pl.SignedDist(ta.Apply(pa.Vertex(i))); d > 1e-9*scale {
					t.Fatalf("%s: vertex %d of A %g above the plane %v", name, i, d, pl)
				}
			}
			for i := 0; i < pb.NumVerts(); i++ {
				if d := pl.SignedDist(tb.Apply(pb.Vertex(i))); d < -1e-9*scale {
					t.Fatalf("%s: vertex %d of B %g below the plane %v", name, i, -d, pl)
				}
			}
		}
		var s Searcher
		var c Cache
		r := s.Intersect(pa, &ta, pb, &tb, &c)
		check("sepvec", r.Status, r.Plane)
		r = s.Intersect(pa, &ta, pb, &tb, &c)
		check("sepvec cached", r.Status, r.Plane)
		var xa, xb Posed
		xa.Set(pa, &ta)
		xb.Set(pb, &tb)
		var pc Cache
		r = s.IntersectPosed(&xa, &xb, &pc)
		check("posed", r.Status, r.Plane)
		r = s.IntersectPosed(&xa, &xb, &pc)
		check("posed cached", r.Status, r.Plane)
		g := GJK(pa, &ta, pb, &tb, nil, nil)
		check("gjk", g.Status, g.Plane)
	})
}

// FuzzSignedDistance: SignedDistance and Manifold on a cube and a
// tetrahedron at fuzzed poses (quaternion and translation each) never
// panic; they return an error for non-finite or out-of-range poses, and
// otherwise a unit normal along which the answer holds: for an overlap the
// gap along the normal is the separation, for a distance the planes
// through the points separate the vertices, and every manifold contact
// validates.
func FuzzSignedDistance(f *testing.F) {
	f.Add(fuzzSeed(1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1.5, 0, 0))
	f.Add(fuzzSeed(1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0.8, 0.1, 0.05))
	f.Add(fuzzSeed(1, 0, 0, 0, 0, 0, 0, 0.7, 0.7, 0, 0, 0.3, 0.2, 0.1))
	f.Add(fuzzSeed(1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0))
	f.Add(fuzzSeed(math.NaN(), 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0))
	f.Add(fuzzSeed(1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1e300, 0, 0))
	pa, pb := fuzzBodies(f)
	var s Searcher
	f.Fuzz(func(t *testing.T, data []byte) {
		fl := floats(data, 14)
		pose := func(x []float64) (geom.Transform, bool) {
			q, ok := geom.Quat{W: x[0], X: x[1], Y: x[2], Z: x[3]}.Normalize()
			return geom.Pose{P: geom.Vec3{X: x[4], Y: x[5], Z: x[6]}, Q: q}.Transform(), ok
		}
		ta, okA := pose(fl[:7])
		tb, okB := pose(fl[7:])
		if !okA || !okB {
			return
		}
		var cache DistanceCache
		d, err := s.SignedDistance(pa, &ta, pb, &tb, &cache)
		finite := ta.T.MaxAbs() <= 1e6 && tb.T.MaxAbs() <= 1e6 && orthonormal(ta.R) && orthonormal(tb.R)
		if err != nil {
			if finite {
				t.Fatalf("error for finite poses: %v", err)
			}
			return
		}
		if !finite {
			return // valid but large: only the absence of a panic is checked
		}
		a := body{v: worldVertsOf(pa, ta)}
		b := body{v: worldVertsOf(pb, tb)}
		// Features parallel within a tiny angle (rotations from denormal
		// quaternions) can leave GJK's direction up to sqrt(2e-13) rad
		// from the closest features' (its stopping tolerance is 1e-13 on
		// the squared distance, which such a turn changes by its square):
		// the plane test allows 1e-6.
		tol := 1e-6 * math.Max(1, math.Max(ta.T.MaxAbs(), tb.T.MaxAbs()))
		if math.Abs(d.Normal.Norm()-1) > 1e-9 || math.IsNaN(d.Separation) {
			t.Fatalf("answer %+v", d)
		}
		if g := gapAlong(a, b, d.Normal); d.Separation <= 0 && math.Abs(g-d.Separation) > tol {
			t.Fatalf("gap along the normal %v, separation %v", g, d.Separation)
		}
		if d.Separation > 0 {
			for _, v := range a.v {
				if x := d.Normal.Dot(v.Sub(d.PointA)); x > tol {
					t.Fatalf("vertex of A %g beyond the plane at PointA", x)
				}
			}
			for _, v := range b.v {
				if x := d.Normal.Dot(v.Sub(d.PointB)); x < -tol {
					t.Fatalf("vertex of B %g before the plane at PointB", -x)
				}
			}
		}
		cs, err := s.Manifold(pa, &ta, pb, &tb, 0.1, &cache, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) > ManifoldPoints || (d.Separation <= 0.1 && len(cs) == 0) {
			t.Fatalf("%d contacts at separation %v", len(cs), d.Separation)
		}
		for _, c := range cs {
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func worldVertsOf(p *Polytope, t geom.Transform) []geom.Vec3 {
	out := make([]geom.Vec3, p.NumVerts())
	for i := range out {
		out[i] = t.Apply(p.Vertex(i))
	}
	return out
}

// orthonormal reports whether R R^T is the identity within 1e-9.
func orthonormal(R geom.Mat3) bool {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			x := R[i][0]*R[j][0] + R[i][1]*R[j][1] + R[i][2]*R[j][2]
			if i == j {
				x--
			}
			if !(math.Abs(x) <= 1e-9) {
				return false
			}
		}
	}
	return true
}

// fuzzBodies returns the fuzzers' bodies: a unit cube and a tetrahedron.
func fuzzBodies(f *testing.F) (*Polytope, *Polytope) {
	pa, err := FromPoints([]geom.Vec3{{X: -0.5, Y: -0.5, Z: -0.5}, {X: 0.5, Y: -0.5, Z: -0.5}, {X: -0.5, Y: 0.5, Z: -0.5}, {X: 0.5, Y: 0.5, Z: -0.5},
		{X: -0.5, Y: -0.5, Z: 0.5}, {X: 0.5, Y: -0.5, Z: 0.5}, {X: -0.5, Y: 0.5, Z: 0.5}, {X: 0.5, Y: 0.5, Z: 0.5}})
	if err != nil {
		f.Fatal(err)
	}
	pb, err := FromPoints([]geom.Vec3{{X: 0, Y: 0, Z: 0.7}, {X: 0.6, Y: 0, Z: -0.2}, {X: -0.3, Y: 0.5, Z: -0.2}, {X: -0.3, Y: -0.5, Z: -0.2}})
	if err != nil {
		f.Fatal(err)
	}
	return pa, pb
}
