package geom

import (
	"fmt"
	"math"
	"strconv"
)

// Vec3 is a vector or point in three dimensions.
type Vec3 struct{ X, Y, Z float64 }

// V returns the vector (x, y, z).
func V(x, y, z float64) Vec3 { return Vec3{x, y, z} }

// Add returns v + w.
func (v Vec3) Add(w Vec3) Vec3 { return Vec3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v - w.
func (v Vec3) Sub(w Vec3) Vec3 { return Vec3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Scale returns s v.
func (v Vec3) Scale(s float64) Vec3 { return Vec3{s * v.X, s * v.Y, s * v.Z} }

// AddScaled returns v + s w.
func (v Vec3) AddScaled(s float64, w Vec3) Vec3 {
	return Vec3{v.X + s*w.X, v.Y + s*w.Y, v.Z + s*w.Z}
}

// Neg returns -v.
func (v Vec3) Neg() Vec3 { return Vec3{-v.X, -v.Y, -v.Z} }

// Dot returns the dot product v . w.
func (v Vec3) Dot(w Vec3) float64 { return v.X*w.X + v.Y*w.Y + v.Z*w.Z }

// Cross returns the cross product v x w.
func (v Vec3) Cross(w Vec3) Vec3 {
	return Vec3{v.Y*w.Z - v.Z*w.Y, v.Z*w.X - v.X*w.Z, v.X*w.Y - v.Y*w.X}
}

// Mul returns the componentwise product of v and w.
func (v Vec3) Mul(w Vec3) Vec3 { return Vec3{v.X * w.X, v.Y * w.Y, v.Z * w.Z} }

// Norm returns the Euclidean length of v, without overflow for huge
// components.
func (v Vec3) Norm() float64 {
	// Fast path: the squares neither overflow nor underflow.
	if n2 := v.Dot(v); n2 > 1e-290 && n2 < 1e290 {
		return math.Sqrt(n2)
	}
	m := v.MaxAbs()
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	if m > 1e150 || m < 1e-150 {
		s := v.Scale(1 / m)
		return m * math.Sqrt(s.Dot(s))
	}
	return math.Sqrt(v.Dot(v))
}

// Norm2 returns the squared length of v.
func (v Vec3) Norm2() float64 { return v.Dot(v) }

// Normalize returns v scaled to unit length and true, or the zero vector and
// false when v has zero (or non-finite) length.
func (v Vec3) Normalize() (Vec3, bool) {
	n := v.Norm()
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return Vec3{}, false
	}
	return v.Scale(1 / n), true
}

// Dist returns the distance between points v and w.
func (v Vec3) Dist(w Vec3) float64 { return v.Sub(w).Norm() }

// Dist2 returns the squared distance between points v and w.
func (v Vec3) Dist2(w Vec3) float64 { return v.Sub(w).Norm2() }

// Lerp returns (1-t) v + t w.
func (v Vec3) Lerp(w Vec3, t float64) Vec3 {
	return Vec3{v.X + t*(w.X-v.X), v.Y + t*(w.Y-v.Y), v.Z + t*(w.Z-v.Z)}
}

// Min returns the componentwise minimum of v and w.
func (v Vec3) Min(w Vec3) Vec3 {
	return Vec3{min(v.X, w.X), min(v.Y, w.Y), min(v.Z, w.Z)}
}

// Max returns the componentwise maximum of v and w.
func (v Vec3) Max(w Vec3) Vec3 {
	return Vec3{max(v.X, w.X), max(v.Y, w.Y), max(v.Z, w.Z)}
}

// Abs returns the componentwise absolute value of v.
func (v Vec3) Abs() Vec3 { return Vec3{math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z)} }

// MaxAbs returns the largest absolute component of v.
func (v Vec3) MaxAbs() float64 {
	return math.Max(math.Abs(v.X), math.Max(math.Abs(v.Y), math.Abs(v.Z)))
}

// LexLess reports whether v comes before w in lexicographic order (X,
// then Y, then Z): a total order of finite points, to give an unordered
// pair of points (an edge shared by two triangles) one orientation.
func (v Vec3) LexLess(w Vec3) bool {
	if v.X != w.X {
		return v.X < w.X
	}
	if v.Y != w.Y {
		return v.Y < w.Y
	}
	return v.Z < w.Z
}

// Get returns component i (0, 1 or 2) of v.
func (v Vec3) Get(i int) float64 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}

// MaxAxis returns the index (0, 1 or 2) of v's largest component, the
// lower index on a tie; a NaN component is never chosen over an earlier
// one.
func (v Vec3) MaxAxis() int {
	axis := 0
	if v.Y > v.X {
		axis = 1
	}
	if v.Z > v.Get(axis) {
		axis = 2
	}
	return axis
}

// Set returns v with component i (0, 1 or 2) replaced by s.
func (v Vec3) Set(i int, s float64) Vec3 {
	switch i {
	case 0:
		v.X = s
	case 1:
		v.Y = s
	default:
		v.Z = s
	}
	return v
}

// IsFinite reports whether all components are finite (not NaN or Inf).
func (v Vec3) IsFinite() bool {
	return !math.IsNaN(v.X) && !math.IsInf(v.X, 0) &&
		!math.IsNaN(v.Y) && !math.IsInf(v.Y, 0) &&
		!math.IsNaN(v.Z) && !math.IsInf(v.Z, 0)
}

// ApproxEqual reports whether v and w differ by at most tol in every
// component.
func (v Vec3) ApproxEqual(w Vec3, tol float64) bool {
	return v.Sub(w).MaxAbs() <= tol
}

// Orthonormal returns two unit vectors that, with the unit vector n, form a
// right-handed orthonormal basis (u, w, n). n must be unit length.
func (n Vec3) Orthonormal() (u, w Vec3) {
	// Duff et al., "Building an Orthonormal Basis, Revisited" (JCGT 2017).
	s := math.Copysign(1, n.Z)
	a := -1 / (s + n.Z)
	b := n.X * n.Y * a
	u = Vec3{1 + s*n.X*n.X*a, s * b, -s * n.X}
	w = Vec3{b, s + n.Y*n.Y*a, -n.Y}
	return u, w
}

// String formats v with full round-trip precision.
func (v Vec3) String() string {
	return fmt.Sprintf("(%s, %s, %s)", fmtF(v.X), fmtF(v.Y), fmtF(v.Z))
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
