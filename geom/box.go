package geom

import "math"

// AABB is an axis-aligned box [Min, Max] (closed). The empty box has
// Min > Max; EmptyAABB returns it, and methods return well-formed boxes for
// well-formed inputs, as image.Rectangle does.
type AABB struct{ Min, Max Vec3 }

// EmptyAABB returns the empty box, the identity of Union.
func EmptyAABB() AABB {
	inf := math.Inf(1)
	return AABB{Vec3{inf, inf, inf}, Vec3{-inf, -inf, -inf}}
}

// AABBOf returns the smallest box containing the points.
func AABBOf(pts ...Vec3) AABB {
	b := EmptyAABB()
	for _, p := range pts {
		b = b.AddPoint(p)
	}
	return b
}

// IsEmpty reports whether b contains no point.
func (b AABB) IsEmpty() bool { return b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z }

// AddPoint returns the smallest box containing b and p.
func (b AABB) AddPoint(p Vec3) AABB { return AABB{b.Min.Min(p), b.Max.Max(p)} }

// Union returns the smallest box containing b and c.
func (b AABB) Union(c AABB) AABB { return AABB{b.Min.Min(c.Min), b.Max.Max(c.Max)} }

// Overlaps reports whether the closed boxes share a point (touching counts).
func (b AABB) Overlaps(c AABB) bool {
	return b.Min.X <= c.Max.X && c.Min.X <= b.Max.X &&
		b.Min.Y <= c.Max.Y && c.Min.Y <= b.Max.Y &&
		b.Min.Z <= c.Max.Z && c.Min.Z <= b.Max.Z
}

// Contains reports whether p is in the closed box.
func (b AABB) Contains(p Vec3) bool {
	return b.Min.X <= p.X && p.X <= b.Max.X && b.Min.Y <= p.Y && p.Y <= b.Max.Y &&
		b.Min.Z <= p.Z && p.Z <= b.Max.Z
}

// ContainsBox reports whether c lies inside b.
func (b AABB) ContainsBox(c AABB) bool {
	return c.IsEmpty() || (b.Contains(c.Min) && b.Contains(c.Max))
}

// Expand returns b grown by d on every side (an empty box stays empty).
func (b AABB) Expand(d float64) AABB {
	if b.IsEmpty() {
		return b
	}
	e := Vec3{d, d, d}
	return AABB{b.Min.Sub(e), b.Max.Add(e)}
}

// Center returns the centre of b.
func (b AABB) Center() Vec3 { return b.Min.Add(b.Max).Scale(0.5) }

// HalfExtent returns half the size of b along each axis.
func (b AABB) HalfExtent() Vec3 { return b.Max.Sub(b.Min).Scale(0.5) }

// Size returns Max - Min.
func (b AABB) Size() Vec3 { return b.Max.Sub(b.Min) }

// Diagonal returns the length of b's diagonal (0 for an empty box).
func (b AABB) Diagonal() float64 {
	if b.IsEmpty() {
		return 0
	}
	return b.Size().Norm()
}

// SurfaceArea returns the surface area of b (0 for an empty box).
func (b AABB) SurfaceArea() float64 {
	if b.IsEmpty() {
		return 0
	}
	s := b.Size()
	return 2 * (s.X*s.Y + s.Y*s.Z + s.Z*s.X)
}

// Transform returns the axis-aligned box of b after the rigid transform t
// (Arvo's method: exact box of the transformed box).
func (b AABB) Transform(t Transform) AABB {
	if b.IsEmpty() {
		return b
	}
	c := t.Apply(b.Center())
	h := t.R.Abs().MulVec(b.HalfExtent())
	return AABB{c.Sub(h), c.Add(h)}
}

// OBB is an oriented box: the points Center + Axes * u with |u_i| <= Half_i,
// where the columns of Axes are orthonormal.
type OBB struct {
	Center Vec3
	Axes   Mat3 // columns are the box's unit axes
	Half   Vec3 // half extents along each axis, >= 0
}

// OBBFromAABB returns the oriented box equal to b.
func OBBFromAABB(b AABB) OBB {
	return OBB{Center: b.Center(), Axes: Identity(), Half: b.HalfExtent()}
}

// Contains reports whether p is inside the closed box, with tolerance tol.
func (o OBB) Contains(p Vec3, tol float64) bool {
	l := o.Axes.MulVecT(p.Sub(o.Center)).Abs()
	return l.X <= o.Half.X+tol && l.Y <= o.Half.Y+tol && l.Z <= o.Half.Z+tol
}

// AABB returns the axis-aligned box of o.
func (o OBB) AABB() AABB {
	h := o.Axes.Abs().MulVec(o.Half)
	return AABB{o.Center.Sub(h), o.Center.Add(h)}
}

// Transform returns o moved by the rigid transform t.
func (o OBB) Transform(t Transform) OBB {
	return OBB{Center: t.Apply(o.Center), Axes: t.R.Mul(o.Axes), Half: o.Half}
}

// Expand returns o grown by d on every side.
func (o OBB) Expand(d float64) OBB {
	o.Half = o.Half.Add(Vec3{d, d, d})
	return o
}

// Overlaps reports whether two oriented boxes intersect (touching counts),
// by the separating-axis test over the 15 candidate axes (Gottschalk et al.,
// OBBTree, 1996), with a small epsilon guarding near-parallel edge axes.
func (o OBB) Overlaps(b OBB) bool {
	// Rotation of b in o's frame, and translation.
	r := o.Axes.Transpose().Mul(b.Axes)
	t := o.Axes.MulVecT(b.Center.Sub(o.Center))
	const eps = 1e-12
	var ar Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			ar[i][j] = math.Abs(r[i][j]) + eps
		}
	}
	ah := [3]float64{o.Half.X, o.Half.Y, o.Half.Z}
	bh := [3]float64{b.Half.X, b.Half.Y, b.Half.Z}
	ta := [3]float64{t.X, t.Y, t.Z}
	for i := 0; i < 3; i++ {
		if math.Abs(ta[i]) > ah[i]+bh[0]*ar[i][0]+bh[1]*ar[i][1]+bh[2]*ar[i][2] {
			return false
		}
	}
	for j := 0; j < 3; j++ {
		tb := ta[0]*r[0][j] + ta[1]*r[1][j] + ta[2]*r[2][j]
		if math.Abs(tb) > bh[j]+ah[0]*ar[0][j]+ah[1]*ar[1][j]+ah[2]*ar[2][j] {
			return false
		}
	}
	for i := 0; i < 3; i++ {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := 0; j < 3; j++ {
			j1, j2 := (j+1)%3, (j+2)%3
			ra := ah[i1]*ar[i2][j] + ah[i2]*ar[i1][j]
			rb := bh[j1]*ar[i][j2] + bh[j2]*ar[i][j1]
			if math.Abs(ta[i2]*r[i1][j]-ta[i1]*r[i2][j]) > ra+rb {
				return false
			}
		}
	}
	return true
}

// Plane is the set of points x with N . x = D. N is a unit normal when the
// plane comes from PlaneFromPoints or PlaneFromNormal; SignedDist is then a
// true distance, positive on the side N points to.
type Plane struct {
	N Vec3
	D float64
}

// PlaneFromNormal returns the plane through p with normal n (normalised);
// ok is false when n is zero.
func PlaneFromNormal(n, p Vec3) (Plane, bool) {
	u, ok := n.Normalize()
	if !ok {
		return Plane{}, false
	}
	return Plane{u, u.Dot(p)}, true
}

// PlaneFromPoints returns the plane through a, b, c with normal along
// (b-a) x (c-a) (counter-clockwise seen from the front); ok is false when
// the points are collinear.
func PlaneFromPoints(a, b, c Vec3) (Plane, bool) {
	return PlaneFromNormal(b.Sub(a).Cross(c.Sub(a)), a)
}

// SignedDist returns N . x - D.
func (p Plane) SignedDist(x Vec3) float64 { return p.N.Dot(x) - p.D }

// Project returns the point of the plane closest to x (N must be unit).
func (p Plane) Project(x Vec3) Vec3 { return x.AddScaled(-p.SignedDist(x), p.N) }

// Flip returns the same plane with the opposite orientation.
func (p Plane) Flip() Plane { return Plane{p.N.Neg(), -p.D} }

// Transform returns the plane moved by the rigid transform t.
func (p Plane) Transform(t Transform) Plane {
	n := t.ApplyDir(p.N)
	return Plane{n, p.D + n.Dot(t.T)}
}
