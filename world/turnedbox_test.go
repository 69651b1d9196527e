package world

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// randomPose is a seeded random pose: a uniform random rotation and a
// translation of up to scale in each coordinate.
func randomPose(r *rand.Rand, scale float64) geom.Pose {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	q, _ = q.Normalize()
	return geom.Pose{P: geom.V(scale*(2*r.Float64()-1), scale*(2*r.Float64()-1), scale*(2*r.Float64()-1)), Q: q}
}

// holds reports whether box b holds point q.
func holds(b geom.AABB, q geom.Vec3) bool {
	return b.Min.X <= q.X && q.X <= b.Max.X && b.Min.Y <= q.Y && q.Y <= b.Max.Y && b.Min.Z <= q.Z && q.Z <= b.Max.Z
}

// TestTurnedBox checks the box of a body's local box turned and moved
// (turnedBox) against brute force at seeded random poses, some far from the
// origin: it holds every vertex of the mesh as the transform places it, and
// it is the box of the local box's eight corners so placed, to rounding.
func TestTurnedBox(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 20))
	for _, m := range []struct {
		name string
		pts  []geom.Vec3
	}{
		{"torus", shapes.Torus(0.3, 0.1, 20, 12).Verts},
		{"car", shapes.Car().Verts},
		{"box", shapes.Box(geom.V(2, 0.5, 0.01)).Verts},
	} {
		ext := broad.ExtentOf(m.pts)
		e := &ext
		for trial := range 2000 {
			scale := []float64{0, 1, 1e3, 1e9}[trial%4]
			tr := randomPose(r, scale).Transform()
			got := turnedBox(e, &tr)
			for i, v := range m.pts {
				if q := tr.Apply(v); !holds(got, q) {
					t.Fatalf("%s trial %d: vertex %d at %v outside %v", m.name, trial, i, q, got)
				}
			}
			var corners []geom.Vec3
			lo, hi := e.Box.Min, e.Box.Max
			for _, x := range []float64{lo.X, hi.X} {
				for _, y := range []float64{lo.Y, hi.Y} {
					for _, z := range []float64{lo.Z, hi.Z} {
						corners = append(corners, tr.Apply(geom.V(x, y, z)))
					}
				}
			}
			want := boxOf(corners)
			tol := 1e-9 * (e.Radius + tr.T.Abs().MaxAbs())
			if got.Min.Sub(want.Min).Abs().MaxAbs() > tol || got.Max.Sub(want.Max).Abs().MaxAbs() > tol {
				t.Fatalf("%s trial %d: box %v, corners' box %v", m.name, trial, got, want)
			}
		}
	}
}

// TestFastBodyBox moves a torus from a seeded random pose by up to twice
// its radius and a random turn, and checks the broad-phase box World gives
// it for FeatureContacts (the start pose's box grown by the reach) against
// brute force: it holds every vertex at the start pose grown by the reach
// and the margin. Between 30% and 70% of the moves reach farther than the
// radius and take the turned local box.
func TestFastBodyBox(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	m := shapes.Torus(0.3, 0.1, 20, 12)
	w, err := New(&Options{Margin: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	id, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: geom.Pose{Q: geom.Quat{W: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.get(id)
	rad := b.sh.extent.Radius
	fast, trials := 0, 2000
	for range trials {
		p0 := randomPose(r, 10)
		dir, _ := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Normalize()
		step := dir.Scale(2 * rad * r.Float64())
		turn := geom.QuatRotationVector(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.2))
		p1 := geom.Pose{P: p0.P.Add(step), Q: turn.Mul(p0.Q)}
		if err := w.SetPose(id, p0); err != nil {
			t.Fatal(err)
		}
		if err := w.Move(id, p1); err != nil {
			t.Fatal(err)
		}
		got := w.box(b, motionReach)
		reach := b.reach()
		if reach >= rad {
			fast++
		}
		t0 := b.p0.Transform()
		for i, v := range m.Verts {
			q := t0.Apply(v)
			lo := q.Sub(geom.V(reach, reach, reach))
			hi := q.Add(geom.V(reach, reach, reach))
			if !holds(got, lo) || !holds(got, hi) {
				t.Fatalf("vertex %d at %v grown by the reach %g not in the box %v", i, q, reach, got)
			}
		}
	}
	if fast < trials*3/10 || fast > trials*7/10 {
		t.Fatalf("%d of %d moves fast, want 30-70%%", fast, trials)
	}
}
