package shapes

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Tessellation of Bullet: BulletSegments vertices around the axis on each of
// BulletRings rings, plus the centre of the base and the tip of the nose.
// The triangle count is 2 * BulletSegments * BulletRings = 640, the bullet
// of the contact paper's example (Sec. 4, Fig. 3).
const (
	BulletSegments  = 32
	BulletRings     = 10
	BulletTriangles = 2 * BulletSegments * BulletRings // 640
	BulletVerts     = BulletSegments*BulletRings + 2   // 322
)

// Default bullet dimensions in metres (a 7.62 mm rifle bullet), for the
// 100-bullet scene of the contact paper (Sec. 4): Bullet(DefaultBulletRadius,
// DefaultBulletLength).
const (
	DefaultBulletRadius = 0.00381
	DefaultBulletLength = 0.028
)

// Bullet returns the closed convex bullet of the contact paper's example
// (Sec. 4, Fig. 3: "each a 640 triangle polyhedron"): a cylinder with a flat
// base and a tangent-ogive nose, exactly BulletTriangles (640) triangles and
// BulletVerts (322) vertices.
//
// The axis is the x axis, nose towards +x: the bullet spans x in
// [-length/2, length/2] and has the given radius. The nose is a tangent
// ogive of length 3*radius (1.5 calibres), so length must exceed 3*radius;
// the rest is the cylindrical body. The base is a fan of triangles around
// its centre vertex (the centre lies in the base plane, so it is not an
// extreme point; all other vertices are). Faces are counter-clockwise seen
// from outside.
//
// Bullet panics unless radius > 0 and 3*radius < length <= 1e4*radius (a
// programming error: check user input with CheckBullet first).
func Bullet(radius, length float64) *mesh.Mesh {
	if err := CheckBullet(radius, length); err != nil {
		panic("shapes.Bullet: " + err.Error())
	}
	const k, nr = BulletSegments, BulletRings
	ln := 3 * radius                              // nose length
	lc := length - ln                             // cylinder length
	x0 := -length / 2                             // base plane
	xs := x0 + lc                                 // shoulder: cylinder meets nose
	rho := (radius*radius + ln*ln) / (2 * radius) // ogive radius
	phiMax := math.Asin(ln / rho)                 // ln >= radius, so < pi/2

	// Ring j (0..nr-1): x position and radius. Ring 0 is the base edge,
	// ring 1 the shoulder, rings 2..nr-1 sample the ogive uniformly in its
	// arc angle; the tip closes the last ring.
	type ring struct{ x, r float64 }
	rings := make([]ring, nr)
	rings[0] = ring{x0, radius}
	rings[1] = ring{xs, radius}
	for j := 2; j < nr; j++ {
		phi := phiMax * float64(j-1) / float64(nr-1)
		rings[j] = ring{xs + rho*math.Sin(phi), rho*math.Cos(phi) - (rho - radius)}
	}
	vs := make([]geom.Vec3, 0, BulletVerts)
	for _, rg := range rings {
		for i := 0; i < k; i++ {
			th := 2 * math.Pi * float64(i) / float64(k)
			vs = append(vs, geom.Vec3{X: rg.x, Y: rg.r * math.Cos(th), Z: rg.r * math.Sin(th)})
		}
	}
	base := len(vs)
	vs = append(vs, geom.Vec3{X: x0})
	tip := len(vs)
	vs = append(vs, geom.Vec3{X: x0 + length})

	id := func(j, i int) int { return j*k + i%k }
	faces := make([][]int, 0, BulletTriangles)
	// Base (normal -x): seen from -x the ring runs clockwise (th grows from
	// +y towards +z), so the loop centre, i+1, i is counter-clockwise.
	for i := 0; i < k; i++ {
		faces = append(faces, []int{base, id(0, i+1), id(0, i)})
	}
	for j := 0; j+1 < nr; j++ {
		for i := 0; i < k; i++ {
			a, b, c, d := id(j, i), id(j, i+1), id(j+1, i+1), id(j+1, i)
			faces = append(faces, []int{a, b, c}, []int{a, c, d})
		}
	}
	for i := 0; i < k; i++ {
		faces = append(faces, []int{id(nr-1, i), id(nr-1, i+1), tip})
	}
	return mustNew(vs, faces)
}

// CheckBullet returns an error naming the bad parameter when Bullet(radius,
// length) would panic: it needs radius > 0 and 3*radius < length <=
// 1e4*radius.
func CheckBullet(radius, length float64) error {
	if !(radius > 0) || math.IsInf(radius, 0) {
		return fmt.Errorf("bullet radius %v must be positive and finite", radius)
	}
	if !(length > 3*radius) || !(length <= 1e4*radius) {
		return fmt.Errorf("bullet length %v must be above 3*radius (%v) and at most 1e4*radius (%v)", length, 3*radius, 1e4*radius)
	}
	return nil
}
