package geom

import "math"

// Mat3 is a 3x3 matrix, row-major: M[r][c]. It acts on column vectors.
type Mat3 [3][3]float64

// Identity returns the identity matrix.
func Identity() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// MatCols returns the matrix whose columns are a, b, c.
func MatCols(a, b, c Vec3) Mat3 {
	return Mat3{{a.X, b.X, c.X}, {a.Y, b.Y, c.Y}, {a.Z, b.Z, c.Z}}
}

// MatRows returns the matrix whose rows are a, b, c.
func MatRows(a, b, c Vec3) Mat3 {
	return Mat3{{a.X, a.Y, a.Z}, {b.X, b.Y, b.Z}, {c.X, c.Y, c.Z}}
}

// Diag returns the diagonal matrix with diagonal d.
func Diag(d Vec3) Mat3 { return Mat3{{d.X, 0, 0}, {0, d.Y, 0}, {0, 0, d.Z}} }

// Skew returns the cross-product matrix of v: Skew(v) w = v x w.
func Skew(v Vec3) Mat3 { return Mat3{{0, -v.Z, v.Y}, {v.Z, 0, -v.X}, {-v.Y, v.X, 0}} }

// Outer returns the outer product a b^T.
func Outer(a, b Vec3) Mat3 {
	return Mat3{
		{a.X * b.X, a.X * b.Y, a.X * b.Z},
		{a.Y * b.X, a.Y * b.Y, a.Y * b.Z},
		{a.Z * b.X, a.Z * b.Y, a.Z * b.Z},
	}
}

// Row returns row i of m.
func (m Mat3) Row(i int) Vec3 { return Vec3{m[i][0], m[i][1], m[i][2]} }

// Col returns column j of m.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// MulVec returns m v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// MulVecAdd returns m v + c, the same sums in the same order as
// m.MulVec(v).Add(c). It reads m through the pointer: a loop placing many
// points does not copy the matrix at each call.
func (m *Mat3) MulVecAdd(v, c Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z + c.X,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z + c.Y,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z + c.Z,
	}
}

// MulVecT returns m^T v.
func (m Mat3) MulVecT(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[1][0]*v.Y + m[2][0]*v.Z,
		m[0][1]*v.X + m[1][1]*v.Y + m[2][1]*v.Z,
		m[0][2]*v.X + m[1][2]*v.Y + m[2][2]*v.Z,
	}
}

// Mul returns the product m n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// Add returns m + n.
func (m Mat3) Add(n Mat3) Mat3 {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] += n[i][j]
		}
	}
	return m
}

// Scale returns s m.
func (m Mat3) Scale(s float64) Mat3 {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] *= s
		}
	}
	return m
}

// Transpose returns m^T.
func (m Mat3) Transpose() Mat3 {
	return Mat3{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// Det returns the determinant of m.
func (m Mat3) Det() float64 {
	return m.Row(0).Dot(m.Row(1).Cross(m.Row(2)))
}

// Inverse returns m^-1 and true, or the zero matrix and false when m is
// singular (determinant zero or not finite).
func (m Mat3) Inverse() (Mat3, bool) {
	r0, r1, r2 := m.Row(0), m.Row(1), m.Row(2)
	c0, c1, c2 := r1.Cross(r2), r2.Cross(r0), r0.Cross(r1)
	d := r0.Dot(c0)
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return Mat3{}, false
	}
	return MatCols(c0, c1, c2).Scale(1 / d), true
}

// Abs returns the componentwise absolute value of m.
func (m Mat3) Abs() Mat3 {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = math.Abs(m[i][j])
		}
	}
	return m
}

// IsRotation reports whether m is orthonormal with determinant +1 within tol.
func (m Mat3) IsRotation(tol float64) bool {
	p := m.Mul(m.Transpose())
	id := Identity()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(p[i][j]-id[i][j]) > tol {
				return false
			}
		}
	}
	return math.Abs(m.Det()-1) <= tol
}

// RotationAxisAngle returns the rotation matrix by angle (radians, right-hand
// rule) about the unit axis.
func RotationAxisAngle(axis Vec3, angle float64) Mat3 {
	return QuatAxisAngle(axis, angle).Mat3()
}

// Quat returns the unit quaternion of the rotation matrix m, with W >= 0.
// It uses Shepperd's method (pick the largest of the four squared
// components), so it is accurate near 0 and near 180 degrees. m must be a
// rotation matrix; the result is normalised.
func (m Mat3) Quat() Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q Quat
	switch {
	case tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]:
		s := math.Sqrt(1+tr) * 2 // 4w
		q = Quat{0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s}
	case m[0][0] >= m[1][1] && m[0][0] >= m[2][2]:
		s := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2 // 4x
		q = Quat{(m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s}
	case m[1][1] >= m[2][2]:
		s := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2 // 4y
		q = Quat{(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s}
	default:
		s := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2 // 4z
		q = Quat{(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s}
	}
	if q.W < 0 {
		q = q.Neg()
	}
	n, _ := q.Normalize()
	return n
}

// AxisAngle returns the unit axis and angle in [0, pi] of the rotation
// matrix m, through its quaternion (robust near 0 and pi). For the identity
// the axis is (1, 0, 0) and the angle 0.
func (m Mat3) AxisAngle() (axis Vec3, angle float64) { return m.Quat().AxisAngle() }
