package screw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// restCase is a body B resting on (or sunk into, or hovering over) body A
// at the start poses.
type restCase struct {
	name   string
	a, b   *mesh.Mesh
	pa, pb geom.Pose
	up     geom.Vec3 // from A towards B
}

// restCases returns B placed on A along up: its lowest vertex level with
// A's highest, shifted sideways at random and turned about up.
func restCases(r *rand.Rand) []restCase {
	on := func(name string, a, b *mesh.Mesh, up geom.Vec3, side float64) restCase {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range a.Verts {
			hi = max(hi, v.Dot(up))
		}
		q := geom.QuatAxisAngle(up, 2*math.Pi*r.Float64())
		for _, v := range b.Verts {
			lo = min(lo, q.Rotate(v).Dot(up))
		}
		u, w := up.Orthonormal()
		off := u.Scale(side*(2*r.Float64()-1)).AddScaled(side*(2*r.Float64()-1), w)
		return restCase{name, a, b, geom.PoseIdentity(), geom.Pose{P: up.Scale(hi - lo).Add(off), Q: q}, up}
	}
	slab := shapes.Box(geom.Vec3{X: 2, Y: 0.1, Z: 2})
	box := shapes.Box(geom.Vec3{X: 0.3, Y: 0.2, Z: 0.4})
	tor := shapes.Torus(1, 0.35, 12, 8)
	y := geom.Vec3{Y: 1}
	// The torus's thin axis.
	b := tor.Bounds()
	ext := b.Max.Sub(b.Min)
	tax := geom.Vec3{Z: 1}
	if ext.Y < ext.X && ext.Y < ext.Z {
		tax = y
	} else if ext.X < ext.Z {
		tax = geom.Vec3{X: 1}
	}
	return []restCase{
		on("box on slab", slab, box, y, 1.2),
		on("car on car", shapes.Car(), shapes.Car(), y, 0.05),
		on("torus on torus", tor, tor, tax, 1),
	}
}

// TestRestingContacts places B on A (touching), sunk into A by 1% of its
// size, and 1% above A, and checks the contacts of the start poses with
// the oracle's independent geometry: with no motion and with B lifting off,
// every case gets contacts at time 0 whose features touch (or overlap, or
// are apart) by the reported separation along the reported normal, and
// FirstContact says the bodies touch at time 0 exactly when they touch or
// overlap.
func TestRestingContacts(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	d := NewDetector()
	for trial := 0; trial < 4; trial++ {
		for _, rc := range restCases(r) {
			size := rc.b.Radius()
			for _, shift := range []float64{0, -0.01 * size, 0.01 * size} {
				b0 := geom.Pose{P: rc.pb.P.AddScaled(shift, rc.up), Q: rc.pb.Q}
				for _, lift := range []float64{0, 0.3} {
					b1 := geom.Pose{P: b0.P.AddScaled(lift, rc.up), Q: b0.Q}
					opt := &Options{RestMargin: 0.02 * size}
					where := fmt.Sprintf("%s trial %d shift %g lift %g", rc.name, trial, shift, lift)
					got, err := d.Detect(rc.a, rc.b, rc.pa, rc.pa, b0, b1, opt, nil)
					if err != nil {
						t.Fatal(err)
					}
					orc := newOracle(rc.a, rc.b, rc.pa, b0, b1, 1)
					resting := 0
					for _, c := range got {
						if !c.Resting {
							continue
						}
						resting++
						if c.Time != 0 {
							t.Errorf("%s: resting contact at time %v", where, c.Time)
						}
						if err := orc.checkResting(c, 1e-9*size, opt.RestMargin); err != nil {
							t.Errorf("%s: %v: %v", where, c, err)
						}
						switch {
						case rc.name != "box on slab":
							// Curved bodies touch at some pairs and
							// lie within the margin at others.
						case shift == 0 && c.Separation != 0:
							t.Errorf("%s: touching vertex-face pair with separation %g", where, c.Separation)
						case shift < 0 && c.Separation > 0, shift > 0 && c.Separation <= 0:
							t.Errorf("%s: separation %g", where, c.Separation)
						}
					}
					if resting == 0 {
						t.Errorf("%s: no resting contact", where)
					}
					hit, toc, err := d.FirstContact(rc.a, rc.b, rc.pa, rc.pa, b0, b1, opt)
					if err != nil {
						t.Fatal(err)
					}
					if touch := shift <= 0; touch != (hit && toc == 0) {
						t.Errorf("%s: FirstContact = %v, %v", where, hit, toc)
					}
				}
			}
		}
	}
}

// checkResting checks a contact of the start poses with the oracle's
// geometry at t = 0: for a vertex and a face, the vertex's signed distance
// from the face's plane is the separation, the normal is the face's
// (outward from A, into B), and the vertex lies over the face (within the
// margin) or, deeper than the margin, an edge from it pierces the face; for two
// edges, the normal is perpendicular to both, the edges' distance is the
// separation's magnitude, and the point lies within it of both edges.
func (o *oracle) checkResting(c Collision, tol, margin float64) error {
	bv := o.bVerts(0)
	nrm := [3]float64{c.Normal.X, c.Normal.Y, c.Normal.Z}
	pt := [3]float64{c.Point.X, c.Point.Y, c.Point.Z}
	near := func(x, y [3]float64, tol float64) bool { return onorm(osub(x, y)) <= tol }
	switch c.Kind {
	case contact.FaceVertex, contact.VertexFace:
		// The face (n, d, its mesh and vertices) and the vertex x with
		// its mesh, neighbours and positions.
		var n [3]float64
		var d float64
		var fm, vm *mesh.Mesh
		var fvs, vvs [][3]float64
		var f, v int
		if c.Kind == contact.FaceVertex {
			fm, fvs, f, vm, vvs, v = o.a, o.av, int(c.FeatureA), o.b, bv, int(c.FeatureB)
		} else {
			fm, fvs, f, vm, vvs, v = o.b, bv, int(c.FeatureB), o.a, o.av, int(c.FeatureA)
		}
		n, d = faceGeom(fm, fvs, f)
		x := vvs[v]
		s := odot(n, x) - d
		if math.Abs(c.Separation) <= margin {
			if !inPoly(fm, fvs, f, osub(x, [3]float64{s * n[0], s * n[1], s * n[2]}), n, margin+tol) {
				return fmt.Errorf("the vertex is not over the face")
			}
		} else {
			// Overlapping: an edge from the vertex pierces the face.
			pierced := false
			for _, e := range vm.Edges {
				w := -1
				if int(e.V[0]) == v {
					w = int(e.V[1])
				} else if int(e.V[1]) == v {
					w = int(e.V[0])
				}
				if w < 0 {
					continue
				}
				sw := odot(n, vvs[w]) - d
				if sw <= 0 {
					continue
				}
				l := s / (s - sw)
				q := [3]float64{x[0] + l*(vvs[w][0]-x[0]), x[1] + l*(vvs[w][1]-x[1]), x[2] + l*(vvs[w][2]-x[2])}
				pierced = pierced || inPoly(fm, fvs, f, q, n, 1e-6)
			}
			if !pierced {
				return fmt.Errorf("no edge from the vertex pierces the face")
			}
		}
		if c.Kind == contact.VertexFace {
			n = [3]float64{-n[0], -n[1], -n[2]}
		}
		if math.Abs(s-c.Separation) > tol && !(c.Separation == 0 && math.Abs(s) <= tol) {
			return fmt.Errorf("plane distance %g, separation %g", s, c.Separation)
		}
		if !near(nrm, n, 1e-9) {
			return fmt.Errorf("normal %v, the face's %v", nrm, n)
		}
		if !near(pt, x, tol) {
			return fmt.Errorf("point %v is not the vertex %v", pt, x)
		}
	case contact.EdgeEdge:
		ea, eb := o.a.Edges[c.FeatureA], o.b.Edges[c.FeatureB]
		a0, a1 := o.av[ea.V[0]], o.av[ea.V[1]]
		b0, b1 := bv[eb.V[0]], bv[eb.V[1]]
		if math.Abs(odot(nrm, ounit(osub(a1, a0)))) > 1e-9 || math.Abs(odot(nrm, ounit(osub(b1, b0)))) > 1e-9 {
			return fmt.Errorf("normal %v not perpendicular to both edges", nrm)
		}
		dist := segSegDist(a0, a1, b0, b1)
		if math.Abs(dist-math.Abs(c.Separation)) > 1e-6*tol/1e-9 {
			return fmt.Errorf("edge distance %g, separation %g", dist, c.Separation)
		}
		lim := math.Abs(c.Separation) + 1e-6*tol/1e-9
		if segSegDist(pt, pt, a0, a1) > lim || segSegDist(pt, pt, b0, b1) > lim {
			return fmt.Errorf("point %v is not between the edges", pt)
		}
	}
	return nil
}
