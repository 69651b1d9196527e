package shapes

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
	"github.com/collide-go/collide/internal/enumname"
	"github.com/collide-go/collide/mesh"
)

// PolytopeShape selects the surface that RandomPolytope samples, the three
// shapes of Chung and Wang's experiments (Sec. 6: "randomly sampling points
// on the surface of an ellipsoid, a thin rod, and a flat plate").
type PolytopeShape int

// The shapes of Chung and Wang Sec. 6, with the proportions of the bench
// polytopes workloads of the collide benchmark: semi-axes along x, y, z
// as fractions of the radius.
const (
	// Ellipsoid: semi-axes (1, u, v) with u, v uniform in [0.5, 1].
	Ellipsoid PolytopeShape = iota
	// Rod: a thin rod along x, semi-axes (1, 0.12, 0.12).
	Rod
	// Plate: a flat plate normal to z, semi-axes (1, u, 0.1) with u
	// uniform in [0.7, 1].
	Plate
)

// polytopeShapeNames are the shapes' names, by value.
var polytopeShapeNames = [...]string{Ellipsoid: "ellipsoid", Rod: "rod", Plate: "plate"}

// String returns "ellipsoid", "rod" or "plate".
func (s PolytopeShape) String() string {
	return enumname.Of(polytopeShapeNames[:], s, "PolytopeShape")
}

// ParsePolytopeShape returns the shape named "ellipsoid", "rod" or "plate".
func ParsePolytopeShape(name string) (PolytopeShape, error) {
	if i := slices.Index(polytopeShapeNames[:], name); i >= 0 {
		return PolytopeShape(i), nil
	}
	return 0, fmt.Errorf("unknown polytope shape %q (want ellipsoid, rod or plate)", name)
}

// PolytopeAxes returns the semi-axes that RandomPolytope(shape, n, radius,
// seed) uses (drawn from the same seeded generator, first).
func PolytopeAxes(shape PolytopeShape, radius float64, seed uint64) geom.Vec3 {
	return polytopeAxes(shape, radius, newRand(seed))
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x636f6c6c69646521)) }

func polytopeAxes(shape PolytopeShape, radius float64, r *rand.Rand) geom.Vec3 {
	switch shape {
	case Rod:
		return geom.Vec3{X: radius, Y: 0.12 * radius, Z: 0.12 * radius}
	case Plate:
		return geom.Vec3{X: radius, Y: (0.7 + 0.3*r.Float64()) * radius, Z: 0.1 * radius}
	}
	return geom.Vec3{X: radius, Y: (0.5 + 0.5*r.Float64()) * radius, Z: (0.5 + 0.5*r.Float64()) * radius}
}

// RandomPolytope returns a random convex polytope with exactly n vertices
// sampled on the surface of an ellipsoid, a thin rod or a flat plate (Chung
// and Wang Sec. 6) of the given radius (largest semi-axis, along x),
// centred at the origin. The semi-axes are PolytopeAxes(shape, radius,
// seed). It is deterministic for a given seed.
//
// RandomPolytope panics when CheckPolytope(shape, n, radius) reports an
// error (a programming error: check user input with it first).
func RandomPolytope(shape PolytopeShape, n int, radius float64, seed uint64) *mesh.Mesh {
	if err := CheckPolytope(shape, n, radius); err != nil {
		panic("shapes.RandomPolytope: " + err.Error())
	}
	r := newRand(seed)
	return ellipsoidPolytope(n, polytopeAxes(shape, radius, r), r)
}

// CheckPolytope returns an error naming the bad parameter when
// RandomPolytope(shape, n, radius, seed) would panic: an unknown shape,
// n < 4, or a radius that is not positive and finite (or so small or large
// that the thin semi-axes leave the range [1e-100, 1e100]).
func CheckPolytope(shape PolytopeShape, n int, radius float64) error {
	if shape < Ellipsoid || shape > Plate {
		return fmt.Errorf("unknown polytope shape %d", int(shape))
	}
	if n < 4 {
		return fmt.Errorf("a polytope needs at least 4 vertices, got %d", n)
	}
	if !(radius >= 1e-99 && radius <= 1e100) {
		return fmt.Errorf("polytope radius %v must be in [1e-99, 1e100]", radius)
	}
	return nil
}

// EllipsoidPolytope returns a random convex polytope with exactly n
// vertices on the ellipsoid with the given semi-axes along x, y and z,
// centred at the origin; deterministic for a given seed.
//
// Points are directions uniform on the unit sphere scaled by the semi-axes
// (denser where the ellipsoid is more curved, like the samples of the
// bench workloads). Every point of an ellipsoid is extreme, but two
// samples can land so close together, or so nearly coplanar with their
// neighbours, that the hull (within its tolerance, hull.DefaultTol) drops
// one: such a point is replaced by a fresh sample until the hull has
// exactly n vertices.
//
// EllipsoidPolytope panics if n < 4 or a semi-axis is not positive and
// finite.
func EllipsoidPolytope(n int, axes geom.Vec3, seed uint64) *mesh.Mesh {
	return ellipsoidPolytope(n, axes, newRand(seed))
}

func ellipsoidPolytope(n int, axes geom.Vec3, r *rand.Rand) *mesh.Mesh {
	if n < 4 {
		panic(fmt.Sprintf("shapes: a polytope needs at least 4 vertices, got %d", n))
	}
	if !(axes.X > 0 && axes.Y > 0 && axes.Z > 0) || !axes.IsFinite() {
		panic(fmt.Sprintf("shapes: semi-axes must be positive and finite, got %v", axes))
	}
	sample := func() geom.Vec3 {
		for {
			d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
			if u, ok := d.Normalize(); ok {
				return u.Mul(axes)
			}
		}
	}
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = sample()
	}
	isVert := make([]bool, n)
	for round := 0; ; round++ {
		m, idx, err := hull.NewIndexed(pts, nil)
		if err == nil && m.NumVerts() == n {
			return m
		}
		if round == 1000 {
			panic(fmt.Sprintf("shapes: cannot place %d extreme points on the ellipsoid %v (last error: %v)", n, axes, err))
		}
		// Replace the points that are not hull vertices (all of them if
		// the hull failed, which only happens for tiny n).
		clear(isVert)
		if err == nil {
			for _, i := range idx {
				isVert[i] = true
			}
		}
		for i := range pts {
			if !isVert[i] {
				pts[i] = sample()
			}
		}
	}
}
