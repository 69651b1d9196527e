package convex

import "github.com/collide-go/collide/geom"

// mat3 is a geom.Mat3 copied as three rows, for the hot loops:
// geom.Mat3.MulVec takes the matrix by value and is too large to inline;
// these methods are small enough to be inlined.
type mat3 struct{ r0, r1, r2 geom.Vec3 }

func rowsOf(m *geom.Mat3) mat3 {
	return mat3{
		geom.Vec3{X: m[0][0], Y: m[0][1], Z: m[0][2]},
		geom.Vec3{X: m[1][0], Y: m[1][1], Z: m[1][2]},
		geom.Vec3{X: m[2][0], Y: m[2][1], Z: m[2][2]},
	}
}

// mul returns m v.
func (m *mat3) mul(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: m.r0.Dot(v), Y: m.r1.Dot(v), Z: m.r2.Dot(v)}
}

// mulT returns m^T v.
func (m *mat3) mulT(v geom.Vec3) geom.Vec3 {
	x, y, z := v.X, v.Y, v.Z
	return geom.Vec3{X: m.r0.X*x + m.r1.X*y + m.r2.X*z, Y: m.r0.Y*x + m.r1.Y*y + m.r2.Y*z, Z: m.r0.Z*x + m.r1.Z*y + m.r2.Z*z}
}
