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
	pa, err := FromPoints([]geom.Vec3{{X: -0.5, Y: -0.5, Z: -0.5}, {X: 0.5, Y: -0.5, Z: -0.5}, {X: -0.5, Y: 0.5, Z: -0.5}, {X: 0.5, Y: 0.5, Z: -0.5},
		{X: -0.5, Y: -0.5, Z: 0.5}, {X: 0.5, Y: -0.5, Z: 0.5}, {X: -0.5, Y: 0.5, Z: 0.5}, {X: 0.5, Y: 0.5, Z: 0.5}})
	if err != nil {
		f.Fatal(err)
	}
	pb, err := FromPoints([]geom.Vec3{{X: 0, Y: 0, Z: 0.7}, {X: 0.6, Y: 0, Z: -0.2}, {X: -0.3, Y: 0.5, Z: -0.2}, {X: -0.3, Y: -0.5, Z: -0.2}})
	if err != nil {
		f.Fatal(err)
	}
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
