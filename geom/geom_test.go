package geom

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/internal/racecheck"
)

// Oracles in this file are computed independently of the code under test:
// Rodrigues' formula for rotation matrices, corner enumeration for boxes,
// projections of corner points for the separating-axis test.

func rng(a uint64) *rand.Rand { return rand.New(rand.NewPCG(a, 0x9e3779b97f4a7c15)) }

func randUnit(r *rand.Rand) Vec3 {
	for {
		v := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if n := math.Sqrt(v.X*v.X + v.Y*v.Y + v.Z*v.Z); n > 1e-3 {
			return Vec3{v.X / n, v.Y / n, v.Z / n}
		}
	}
}

func randVec(r *rand.Rand, s float64) Vec3 {
	return Vec3{s * (2*r.Float64() - 1), s * (2*r.Float64() - 1), s * (2*r.Float64() - 1)}
}

func randQuat(r *rand.Rand) Quat {
	for {
		q := Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		n := math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)
		if n > 1e-3 {
			return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
		}
	}
}

// rodrigues is the rotation matrix by angle about the unit axis u:
// cos I + sin [u]x + (1 - cos) u u^T, written out element by element.
func rodrigues(u Vec3, angle float64) Mat3 {
	c, s := math.Cos(angle), math.Sin(angle)
	// 1 - cos(angle) = 2 sin^2(angle/2), accurate for small angles.
	h := math.Sin(angle / 2)
	k := 2 * h * h
	return Mat3{
		{c + k*u.X*u.X, k*u.X*u.Y - s*u.Z, k*u.X*u.Z + s*u.Y},
		{k*u.Y*u.X + s*u.Z, c + k*u.Y*u.Y, k*u.Y*u.Z - s*u.X},
		{k*u.Z*u.X - s*u.Y, k*u.Z*u.Y + s*u.X, c + k*u.Z*u.Z},
	}
}

func matClose(a, b Mat3, tol float64) bool {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(a[i][j]-b[i][j]) > tol {
				return false
			}
		}
	}
	return true
}

// sameRotation reports whether q and p are the same rotation (q = +-p).
func sameRotation(q, p Quat, tol float64) bool {
	d := math.Abs(q.W*p.W + q.X*p.X + q.Y*p.Y + q.Z*p.Z)
	return 1-d <= tol
}

// angles used by the rotation tests, with the edge cases near 0 and pi.
func testAngles(r *rand.Rand) []float64 {
	a := []float64{0, 1e-300, 1e-12, 1e-8, 1e-4, 0.5, 1, math.Pi / 2, 2, 3, math.Pi - 1e-4, math.Pi - 1e-8, math.Pi - 1e-12, math.Pi}
	for i := 0; i < 20; i++ {
		a = append(a, math.Pi*r.Float64())
	}
	return a
}

func TestRotationRoundTrips(t *testing.T) {
	r := rng(1)
	axes := []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {-1, 0, 0}}
	for i := 0; i < 200; i++ {
		axes = append(axes, randUnit(r))
	}
	for _, u := range axes {
		for _, angle := range testAngles(r) {
			want := rodrigues(u, angle)
			q := QuatAxisAngle(u, angle)
			if m := q.Mat3(); !matClose(m, want, 4e-16*4) {
				t.Fatalf("QuatAxisAngle(%v, %v).Mat3() = %v, want %v", u, angle, m, want)
			}
			if m := RotationAxisAngle(u, angle); !matClose(m, want, 4e-16*4) {
				t.Fatalf("RotationAxisAngle(%v, %v) = %v, want %v", u, angle, m, want)
			}
			if !want.IsRotation(1e-14) {
				t.Fatalf("rodrigues(%v, %v) is not a rotation", u, angle)
			}
			// Matrix -> quaternion: the same rotation, unit, W >= 0.
			q2 := want.Quat()
			if !sameRotation(q2, q, 1e-15) || math.Abs(q2.Norm()-1) > 1e-15 || q2.W < 0 {
				t.Fatalf("rodrigues(%v, %v).Quat() = %v, want +-%v", u, angle, q2, q)
			}
			// Quaternion components directly (stronger than the dot test for
			// tiny angles): q2 = +-(cos a/2, sin a/2 u).
			s := 1.0
			if q2.Dot(q) < 0 {
				s = -1
			}
			if d := (Vec3{q2.X - s*q.X, q2.Y - s*q.Y, q2.Z - s*q.Z}).MaxAbs(); d > 1e-16+1e-15*math.Sin(angle/2) {
				t.Fatalf("rodrigues(%v, %v).Quat() = %v, vector part off by %g from %v", u, angle, q2, d, q)
			}
			// Axis-angle back: angle accurate in absolute terms, and in
			// relative terms for small angles; axis up to sign at pi.
			au, aa := want.AxisAngle()
			if math.Abs(aa-angle) > 1e-15+1e-14*angle {
				t.Fatalf("AxisAngle of rotation (%v, %v): angle %v (error %g)", u, angle, aa, aa-angle)
			}
			if angle > 1e-250 {
				d := au.Sub(u).Norm()
				if angle > math.Pi-1e-6 {
					d = math.Min(d, au.Add(u).Norm())
				}
				if d > 1e-12 {
					t.Fatalf("AxisAngle of rotation (%v, %v): axis %v", u, angle, au)
				}
			}
			// Rotation vector and back.
			rv := q.RotationVector()
			if q3 := QuatRotationVector(rv); !sameRotation(q3, q, 1e-15) {
				t.Fatalf("QuatRotationVector(%v.RotationVector()) = %v, want %v", q, q3, q)
			}
		}
	}
}

func TestQuatMatrixAgree(t *testing.T) {
	r := rng(2)
	for i := 0; i < 2000; i++ {
		q, p := randQuat(r), randQuat(r)
		v := randVec(r, 10)
		m := q.Mat3()
		if !m.IsRotation(1e-14) {
			t.Fatalf("%v.Mat3() = %v is not a rotation", q, m)
		}
		if a, b := q.Rotate(v), m.MulVec(v); !a.ApproxEqual(b, 1e-14) {
			t.Fatalf("%v.Rotate(%v) = %v, matrix gives %v", q, v, a, b)
		}
		// Composition: (qp) v = q (p v), and the matrix of qp is M(q) M(p).
		if a, b := q.Mul(p).Rotate(v), q.Rotate(p.Rotate(v)); !a.ApproxEqual(b, 1e-13) {
			t.Fatalf("(%v %v).Rotate(%v) = %v, want %v", q, p, v, a, b)
		}
		if a, b := q.Mul(p).Mat3(), m.Mul(p.Mat3()); !matClose(a, b, 1e-14) {
			t.Fatalf("Mat3 of product %v, product of Mat3 %v", a, b)
		}
		if a := q.Conj().Rotate(q.Rotate(v)); !a.ApproxEqual(v, 1e-13) {
			t.Fatalf("%v.Conj() does not undo the rotation: %v -> %v", q, v, a)
		}
		if a := m.Quat(); !sameRotation(a, q, 1e-15) {
			t.Fatalf("%v.Mat3().Quat() = %v", q, a)
		}
		// Inverse of a rotation matrix is its transpose.
		inv, ok := m.Inverse()
		if !ok || !matClose(inv, m.Transpose(), 1e-14) {
			t.Fatalf("Inverse of rotation %v = %v, %v", m, inv, ok)
		}
	}
}

func TestMat3(t *testing.T) {
	r := rng(3)
	for i := 0; i < 1000; i++ {
		var m Mat3
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				m[a][b] = 2*r.Float64() - 1
			}
		}
		v := randVec(r, 1)
		// Determinant by the rule of Sarrus.
		det := m[0][0]*m[1][1]*m[2][2] + m[0][1]*m[1][2]*m[2][0] + m[0][2]*m[1][0]*m[2][1] -
			m[0][2]*m[1][1]*m[2][0] - m[0][0]*m[1][2]*m[2][1] - m[0][1]*m[1][0]*m[2][2]
		if math.Abs(m.Det()-det) > 1e-14 {
			t.Fatalf("Det(%v) = %v, want %v", m, m.Det(), det)
		}
		if inv, ok := m.Inverse(); ok && math.Abs(det) > 1e-3 {
			if p := m.Mul(inv); !matClose(p, Identity(), 1e-10) {
				t.Fatalf("%v times its inverse = %v", m, p)
			}
		}
		if a, b := m.MulVecT(v), m.Transpose().MulVec(v); !a.ApproxEqual(b, 1e-15) {
			t.Fatalf("MulVecT %v != Transpose().MulVec %v", a, b)
		}
		if a, b := m.Row(1), m.Transpose().Col(1); a != b {
			t.Fatalf("Row/Col mismatch %v %v", a, b)
		}
		w := randVec(r, 1)
		if a, b := Skew(v).MulVec(w), v.Cross(w); !a.ApproxEqual(b, 1e-15) {
			t.Fatalf("Skew(%v) %v = %v, want %v", v, w, a, b)
		}
		if a, b := Outer(v, w).MulVec(v), v.Scale(w.Dot(v)); !a.ApproxEqual(b, 1e-15) {
			t.Fatalf("Outer(%v, %v) %v = %v, want %v", v, w, v, a, b)
		}
	}
	if _, ok := (Mat3{{1, 2, 3}, {2, 4, 6}, {0, 0, 1}}).Inverse(); ok {
		t.Error("singular matrix inverted")
	}
	if _, ok := (Mat3{{math.NaN(), 0, 0}, {0, 1, 0}, {0, 0, 1}}).Inverse(); ok {
		t.Error("NaN matrix inverted")
	}
}

func TestVec3(t *testing.T) {
	r := rng(4)
	for i := 0; i < 1000; i++ {
		a, b := randVec(r, 3), randVec(r, 3)
		c := a.Cross(b)
		if math.Abs(c.Dot(a)) > 1e-13 || math.Abs(c.Dot(b)) > 1e-13 {
			t.Fatalf("%v x %v = %v is not orthogonal", a, b, c)
		}
		// |a x b|^2 = |a|^2 |b|^2 - (a.b)^2 (Lagrange).
		if d := c.Norm2() - (a.Norm2()*b.Norm2() - a.Dot(b)*a.Dot(b)); math.Abs(d) > 1e-12 {
			t.Fatalf("Lagrange identity off by %g for %v, %v", d, a, b)
		}
		n := randUnit(r)
		u, w := n.Orthonormal()
		m := MatCols(u, w, n)
		if !m.IsRotation(1e-14) {
			t.Fatalf("Orthonormal(%v) = %v, %v: not a right-handed orthonormal basis", n, u, w)
		}
	}
	for _, n := range []Vec3{{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, 0, math.Copysign(1, -1)}} {
		u, w := n.Orthonormal()
		if !MatCols(u, w, n).IsRotation(1e-15) {
			t.Errorf("Orthonormal(%v) = %v, %v", n, u, w)
		}
	}
	// Norm without overflow or underflow.
	for _, s := range []float64{1e-300, 1e-160, 1, 1e160, 1e300} {
		v := Vec3{3 * s, 4 * s, 12 * s}
		if got := v.Norm(); math.Abs(got-13*s) > 1e-15*13*s {
			t.Errorf("Norm(%v) = %v, want %v", v, got, 13*s)
		}
		if u, ok := v.Normalize(); !ok || math.Abs(u.Norm()-1) > 1e-15 {
			t.Errorf("Normalize(%v) = %v, %v", v, u, ok)
		}
	}
	if _, ok := (Vec3{}).Normalize(); ok {
		t.Error("zero vector normalised")
	}
	if _, ok := (Vec3{math.Inf(1), 0, 0}).Normalize(); ok {
		t.Error("infinite vector normalised")
	}
	if (Vec3{1, math.NaN(), 0}).IsFinite() || !(Vec3{1, 2, 3}).IsFinite() {
		t.Error("IsFinite")
	}
	v := Vec3{1, 2, 3}
	for i := 0; i < 3; i++ {
		if v.Set(i, 7).Get(i) != 7 || v.Get(i) != float64(i+1) {
			t.Errorf("Get/Set %d", i)
		}
	}
}

func TestPose(t *testing.T) {
	r := rng(5)
	for i := 0; i < 2000; i++ {
		p := Pose{P: randVec(r, 10), Q: randQuat(r)}
		o := Pose{P: randVec(r, 10), Q: randQuat(r)}
		x := randVec(r, 5)
		d := randVec(r, 1)
		// Independent evaluation through Rodrigues-free matrices.
		if a, b := p.Apply(x), p.Q.Mat3().MulVec(x).Add(p.P); !a.ApproxEqual(b, 1e-13) {
			t.Fatalf("%v.Apply(%v) = %v, want %v", p, x, a, b)
		}
		if a, b := p.ApplyDir(d), p.Q.Mat3().MulVec(d); !a.ApproxEqual(b, 1e-14) {
			t.Fatalf("%v.ApplyDir(%v) = %v, want %v", p, d, a, b)
		}
		if a, b := p.Mul(o).Apply(x), p.Apply(o.Apply(x)); !a.ApproxEqual(b, 1e-12) {
			t.Fatalf("(%v * %v).Apply(%v) = %v, want %v", p, o, x, a, b)
		}
		if a := p.Inverse().Apply(p.Apply(x)); !a.ApproxEqual(x, 1e-12) {
			t.Fatalf("%v.Inverse() does not undo: %v -> %v", p, x, a)
		}
		id := p.Mul(p.Inverse())
		if !id.P.ApproxEqual(Vec3{}, 1e-12) || !sameRotation(id.Q, QuatIdentity(), 1e-15) {
			t.Fatalf("%v times its inverse = %v", p, id)
		}
		tr := p.Transform()
		if a, b := tr.Apply(x), p.Apply(x); !a.ApproxEqual(b, 1e-13) {
			t.Fatalf("Transform().Apply %v != Apply %v", a, b)
		}
		if a := tr.ApplyInv(tr.Apply(x)); !a.ApproxEqual(x, 1e-12) {
			t.Fatalf("ApplyInv does not undo Apply: %v -> %v", x, a)
		}
		if a := tr.ApplyDirInv(tr.ApplyDir(d)); !a.ApproxEqual(d, 1e-14) {
			t.Fatalf("ApplyDirInv does not undo ApplyDir: %v -> %v", d, a)
		}
		to := o.Transform()
		if a, b := tr.Mul(to).Apply(x), p.Mul(o).Apply(x); !a.ApproxEqual(b, 1e-12) {
			t.Fatalf("Transform.Mul %v != Pose.Mul %v", a, b)
		}
		if a := tr.Inverse().Apply(tr.Apply(x)); !a.ApproxEqual(x, 1e-12) {
			t.Fatalf("Transform.Inverse does not undo: %v", a)
		}
		back := tr.Pose()
		if !back.P.ApproxEqual(p.P, 0) || !sameRotation(back.Q, p.Q, 1e-15) {
			t.Fatalf("%v.Transform().Pose() = %v", p, back)
		}
		// String and ParsePose round trip exactly.
		q, err := ParsePose(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePose(%q) = %v, %v", p.String(), q, err)
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if !PoseIdentity().Apply(Vec3{1, 2, 3}).ApproxEqual(Vec3{1, 2, 3}, 0) {
		t.Error("identity pose moves points")
	}
	for _, s := range []string{"", "1,2", "1,2,3,4", "a,b,c", "1,2,3,2,0,0,0", "1,2,NaN", "1,2,3,1,0,0,Inf"} {
		if _, err := ParsePose(s); err == nil {
			t.Errorf("ParsePose(%q) succeeded", s)
		}
	}
	if p, err := ParsePose(" 1, 2 ,3"); err != nil || p.P != (Vec3{1, 2, 3}) || p.Q != QuatIdentity() {
		t.Errorf("ParsePose of a translation = %v, %v", p, err)
	}
	if err := (Pose{Q: Quat{2, 0, 0, 0}}).Validate(); err == nil {
		t.Error("non-unit quaternion validated")
	}
	if err := (Pose{P: Vec3{math.NaN(), 0, 0}, Q: QuatIdentity()}).Validate(); err == nil {
		t.Error("NaN pose validated")
	}
}

func TestSlerp(t *testing.T) {
	r := rng(6)
	for i := 0; i < 1000; i++ {
		q, p := randQuat(r), randQuat(r)
		switch i % 4 {
		case 1: // nearly the same rotation
			p = q.Mul(QuatAxisAngle(randUnit(r), 1e-9))
		case 2: // nearly opposite (angle near pi)
			p = q.Mul(QuatAxisAngle(randUnit(r), math.Pi-1e-9))
		case 3: // the same rotation with the opposite sign
			p = q.Neg()
		}
		if a := q.Slerp(p, 0); !sameRotation(a, q, 1e-15) {
			t.Fatalf("Slerp(%v, %v, 0) = %v", q, p, a)
		}
		if a := q.Slerp(p, 1); !sameRotation(a, p, 1e-15) {
			t.Fatalf("Slerp(%v, %v, 1) = %v", q, p, a)
		}
		// Total angle between q and p on the rotation group.
		total := 2 * math.Acos(math.Min(1, math.Abs(q.Dot(p))))
		prev := q
		const steps = 8
		for k := 1; k <= steps; k++ {
			s := q.Slerp(p, float64(k)/steps)
			if math.Abs(s.Norm()-1) > 1e-15 {
				t.Fatalf("Slerp not unit: %v", s)
			}
			step := 2 * math.Asin(math.Min(1, prev.Conj().Mul(s).Vec().Norm()))
			if math.Abs(step-total/steps) > 1e-7 {
				t.Fatalf("Slerp(%v, %v) step %d turns %v, want %v (constant speed)", q, p, k, step, total/steps)
			}
			prev = s
		}
	}
}

// corners returns the 8 corners of an OBB.
func corners(o OBB) [8]Vec3 {
	var c [8]Vec3
	for i := 0; i < 8; i++ {
		u := Vec3{o.Half.X, o.Half.Y, o.Half.Z}
		if i&1 != 0 {
			u.X = -u.X
		}
		if i&2 != 0 {
			u.Y = -u.Y
		}
		if i&4 != 0 {
			u.Z = -u.Z
		}
		c[i] = o.Center.Add(o.Axes.Col(0).Scale(u.X)).Add(o.Axes.Col(1).Scale(u.Y)).Add(o.Axes.Col(2).Scale(u.Z))
	}
	return c
}

func TestAABBTransform(t *testing.T) {
	r := rng(7)
	for i := 0; i < 2000; i++ {
		b := AABBOf(randVec(r, 5), randVec(r, 5))
		tr := Pose{P: randVec(r, 10), Q: randQuat(r)}.Transform()
		if i%10 == 0 {
			tr.R = QuatAxisAngle(Vec3{0, 0, 1}, math.Pi/2*float64(r.IntN(4))).Mat3()
		}
		got := b.Transform(tr)
		want := EmptyAABB()
		for _, c := range corners(OBBFromAABB(b)) {
			want = want.AddPoint(tr.Apply(c))
		}
		// Contains every transformed corner, and is tight.
		if !got.Expand(1e-12).ContainsBox(want) {
			t.Fatalf("%v.Transform = %v does not contain the corners' box %v", b, got, want)
		}
		if !got.Min.ApproxEqual(want.Min, 1e-12) || !got.Max.ApproxEqual(want.Max, 1e-12) {
			t.Fatalf("%v.Transform = %v, tight box %v", b, got, want)
		}
		// The OBB route agrees.
		if ob := OBBFromAABB(b).Transform(tr).AABB(); !ob.Min.ApproxEqual(want.Min, 1e-12) || !ob.Max.ApproxEqual(want.Max, 1e-12) {
			t.Fatalf("OBB route %v, tight box %v", ob, want)
		}
	}
	if e := EmptyAABB(); !e.IsEmpty() || !e.Transform(TransformIdentity()).IsEmpty() || e.Diagonal() != 0 || e.SurfaceArea() != 0 || !e.Expand(1).IsEmpty() {
		t.Error("empty box not preserved")
	}
}

func TestAABB(t *testing.T) {
	r := rng(8)
	for i := 0; i < 2000; i++ {
		a := AABBOf(randVec(r, 5), randVec(r, 5))
		b := AABBOf(randVec(r, 5), randVec(r, 5))
		// Brute force: the boxes overlap iff the intervals overlap on all
		// three axes.
		want := true
		for k := 0; k < 3; k++ {
			if a.Max.Get(k) < b.Min.Get(k) || b.Max.Get(k) < a.Min.Get(k) {
				want = false
			}
		}
		if a.Overlaps(b) != want || b.Overlaps(a) != want {
			t.Fatalf("%v.Overlaps(%v) = %v, want %v", a, b, a.Overlaps(b), want)
		}
		u := a.Union(b)
		if !u.ContainsBox(a) || !u.ContainsBox(b) {
			t.Fatalf("Union %v does not contain %v and %v", u, a, b)
		}
		p := randVec(r, 5)
		if a.Contains(p) != (a.Min.X <= p.X && p.X <= a.Max.X && a.Min.Y <= p.Y && p.Y <= a.Max.Y && a.Min.Z <= p.Z && p.Z <= a.Max.Z) {
			t.Fatalf("%v.Contains(%v)", a, p)
		}
		s := a.Size()
		if sa := a.SurfaceArea(); math.Abs(sa-2*(s.X*s.Y+s.Y*s.Z+s.Z*s.X)) > 1e-12 {
			t.Fatalf("SurfaceArea %v", sa)
		}
		if !a.Center().Add(a.HalfExtent()).ApproxEqual(a.Max, 1e-15) {
			t.Fatal("Center + HalfExtent != Max")
		}
	}
	// Touching boxes overlap.
	a := AABB{Vec3{0, 0, 0}, Vec3{1, 1, 1}}
	if !a.Overlaps(AABB{Vec3{1, 0, 0}, Vec3{2, 1, 1}}) {
		t.Error("touching boxes do not overlap")
	}
}

// satBrute decides whether two OBBs overlap from their corner points
// alone: the boxes are disjoint iff the corner sets' projections are
// disjoint on one of the 15 axes (face normals of each box and cross
// products of edge directions), all computed here from the corners. It
// returns the largest gap (positive: separated) over the axes.
func satBrute(a, b OBB) float64 {
	ca, cb := corners(a), corners(b)
	// Edge directions from corners: 0-1, 0-2, 0-4 differ along one axis.
	ea := [3]Vec3{ca[1].Sub(ca[0]), ca[2].Sub(ca[0]), ca[4].Sub(ca[0])}
	eb := [3]Vec3{cb[1].Sub(cb[0]), cb[2].Sub(cb[0]), cb[4].Sub(cb[0])}
	var axes []Vec3
	axes = append(axes, ea[:]...)
	axes = append(axes, eb[:]...)
	for _, x := range ea {
		for _, y := range eb {
			axes = append(axes, x.Cross(y))
		}
	}
	gap := math.Inf(-1)
	for _, ax := range axes {
		n := math.Sqrt(ax.Dot(ax))
		if n < 1e-9 {
			continue // parallel edges: covered by the face axes
		}
		ax = ax.Scale(1 / n)
		loA, hiA, loB, hiB := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, c := range ca {
			d := ax.Dot(c)
			loA, hiA = math.Min(loA, d), math.Max(hiA, d)
		}
		for _, c := range cb {
			d := ax.Dot(c)
			loB, hiB = math.Min(loB, d), math.Max(hiB, d)
		}
		gap = math.Max(gap, math.Max(loB-hiA, loA-hiB))
	}
	return gap
}

func randOBB(r *rand.Rand) OBB {
	return OBB{Center: randVec(r, 1.3), Axes: randQuat(r).Mat3(), Half: Vec3{0.1 + r.Float64(), 0.1 + r.Float64(), 0.1 + r.Float64()}}
}

func TestOBBOverlaps(t *testing.T) {
	r := rng(9)
	hits, n := 0, 0
	for i := 0; i < 20000; i++ {
		a, b := randOBB(r), randOBB(r)
		switch i % 5 {
		case 1: // parallel boxes (degenerate cross axes)
			b.Axes = a.Axes
		case 2: // one shared axis
			b.Axes = a.Axes.Mul(QuatAxisAngle(Vec3{0, 0, 1}, r.Float64()).Mat3())
		}
		gap := satBrute(a, b)
		if math.Abs(gap) < 1e-9 {
			continue // touching within rounding: either answer is right
		}
		want := gap < 0
		n++
		if want {
			hits++
		}
		if a.Overlaps(b) != want || b.Overlaps(a) != want {
			t.Fatalf("%+v.Overlaps(%+v) = %v, brute force says %v (gap %g)", a, b, a.Overlaps(b), want, gap)
		}
		// Containment of centres implies overlap.
		if a.Contains(b.Center, 0) && !a.Overlaps(b) {
			t.Fatalf("%+v contains the centre of %+v but does not overlap it", a, b)
		}
	}
	if hits < n*3/10 || hits > n*7/10 {
		t.Errorf("%d of %d OBB cases overlap; the generator should give 30%%-70%%", hits, n)
	}
}

func TestOBB(t *testing.T) {
	r := rng(10)
	for i := 0; i < 1000; i++ {
		o := randOBB(r)
		for _, c := range corners(o) {
			if !o.Contains(c, 1e-12) || !o.AABB().Expand(1e-12).Contains(c) {
				t.Fatalf("corner %v not in %+v or its AABB %v", c, o, o.AABB())
			}
		}
		p := o.Center.Add(o.Axes.Col(0).Scale(o.Half.X + 1e-6))
		if o.Contains(p, 0) {
			t.Fatalf("%+v contains the outside point %v", o, p)
		}
		e := o.Expand(0.5)
		if !e.Contains(p, 0) || e.Half != o.Half.Add(Vec3{0.5, 0.5, 0.5}) {
			t.Fatalf("Expand: %+v", e)
		}
	}
}

func TestPlane(t *testing.T) {
	r := rng(11)
	for i := 0; i < 2000; i++ {
		a, b, c := randVec(r, 5), randVec(r, 5), randVec(r, 5)
		pl, ok := PlaneFromPoints(a, b, c)
		if !ok {
			continue
		}
		for _, p := range []Vec3{a, b, c} {
			if d := pl.SignedDist(p); math.Abs(d) > 1e-13 {
				t.Fatalf("PlaneFromPoints(%v, %v, %v): point %v at distance %g", a, b, c, p, d)
			}
		}
		// The normal is unit and along (b-a) x (c-a).
		if n := b.Sub(a).Cross(c.Sub(a)); n.Dot(pl.N) <= 0 || math.Abs(pl.N.Norm()-1) > 1e-15 {
			t.Fatalf("PlaneFromPoints normal %v vs %v", pl.N, n)
		}
		x := randVec(r, 5)
		s := 3 * r.Float64()
		if d := pl.SignedDist(x.AddScaled(s, pl.N)) - pl.SignedDist(x); math.Abs(d-s) > 1e-13 {
			t.Fatalf("moving by %v along the normal changes the distance by %v", s, d)
		}
		pr := pl.Project(x)
		if math.Abs(pl.SignedDist(pr)) > 1e-13 || math.Abs(pr.Dist(x)-math.Abs(pl.SignedDist(x))) > 1e-13 {
			t.Fatalf("Project(%v) = %v", x, pr)
		}
		if f := pl.Flip(); math.Abs(f.SignedDist(x)+pl.SignedDist(x)) > 1e-13 {
			t.Fatalf("Flip: %v", f)
		}
		tr := Pose{P: randVec(r, 10), Q: randQuat(r)}.Transform()
		if d := pl.Transform(tr).SignedDist(tr.Apply(x)) - pl.SignedDist(x); math.Abs(d) > 1e-12 {
			t.Fatalf("Plane.Transform changes distances by %g", d)
		}
		if pn, ok := PlaneFromNormal(pl.N.Scale(7), a); !ok || math.Abs(pn.D-pl.D) > 1e-13 {
			t.Fatalf("PlaneFromNormal: %v, want %v", pn, pl)
		}
	}
	if _, ok := PlaneFromPoints(Vec3{}, Vec3{1, 1, 1}, Vec3{2, 2, 2}); ok {
		t.Error("plane from collinear points")
	}
	if _, ok := PlaneFromNormal(Vec3{}, Vec3{1, 2, 3}); ok {
		t.Error("plane from zero normal")
	}
}

func TestNoAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	r := rng(12)
	p, o := Pose{P: randVec(r, 1), Q: randQuat(r)}, Pose{P: randVec(r, 1), Q: randQuat(r)}
	a, b := randOBB(r), randOBB(r)
	box := AABBOf(randVec(r, 1), randVec(r, 1))
	v := randVec(r, 1)
	var sink float64
	n := testing.AllocsPerRun(100, func() {
		w := v.Add(v).Sub(v).Scale(2).Cross(v).AddScaled(3, v)
		sink += w.Dot(v) + w.Norm()
		u, _ := w.Normalize()
		q := p.Q.Mul(o.Q).Slerp(o.Q, 0.3)
		m := q.Mat3()
		sink += m.Quat().W + m.Det()
		_, ang := m.AxisAngle()
		sink += ang
		pc := p.Mul(o).Inverse()
		tr := pc.Transform()
		sink += tr.Apply(u).X + pc.Apply(u).Y + tr.Mul(tr.Inverse()).T.Z
		bt := box.Transform(tr)
		sink += bt.Min.X
		if a.Overlaps(b) {
			sink++
		}
		pl, _ := PlaneFromPoints(v, w, u)
		sink += pl.Transform(tr).SignedDist(v)
	})
	if n != 0 {
		t.Errorf("geometry arithmetic allocates %v times per run", n)
	}
	_ = sink
}

var sinkV Vec3
var sinkF float64
var sinkB bool

func BenchmarkVec3Cross(b *testing.B) {
	v, w := Vec3{1, 2, 3}, Vec3{-3, 0.5, 2}
	for i := 0; i < b.N; i++ {
		v = v.Cross(w).Scale(0.1).Add(w)
	}
	sinkV = v
}

func BenchmarkQuatRotate(b *testing.B) {
	q := QuatAxisAngle(Vec3{1, 2, 3}, 0.7)
	v := Vec3{1, 0, 0}
	for i := 0; i < b.N; i++ {
		v = q.Rotate(v)
	}
	sinkV = v
}

func BenchmarkPoseApply(b *testing.B) {
	p := Pose{P: Vec3{1, 2, 3}, Q: QuatAxisAngle(Vec3{1, 2, 3}, 0.7)}
	v := Vec3{1, 0, 0}
	for i := 0; i < b.N; i++ {
		v = p.Apply(v)
	}
	sinkV = v
}

func BenchmarkTransformApply(b *testing.B) {
	tr := Pose{P: Vec3{1, 2, 3}, Q: QuatAxisAngle(Vec3{1, 2, 3}, 0.7)}.Transform()
	v := Vec3{1, 0, 0}
	for i := 0; i < b.N; i++ {
		v = tr.Apply(v)
	}
	sinkV = v
}

func BenchmarkPoseMul(b *testing.B) {
	p := Pose{P: Vec3{1, 2, 3}, Q: QuatAxisAngle(Vec3{1, 2, 3}, 0.7)}
	o := p
	for i := 0; i < b.N; i++ {
		o = p.Mul(o)
	}
	sinkV = o.P
}

func BenchmarkMat3Quat(b *testing.B) {
	m := QuatAxisAngle(Vec3{1, 2, 3}, 0.7).Mat3()
	for i := 0; i < b.N; i++ {
		sinkF += m.Quat().W
	}
}

func BenchmarkSlerp(b *testing.B) {
	q, p := QuatAxisAngle(Vec3{1, 2, 3}, 0.7), QuatAxisAngle(Vec3{-1, 0, 3}, 2)
	for i := 0; i < b.N; i++ {
		sinkF += q.Slerp(p, 0.3).W
	}
}

func BenchmarkOBBOverlaps(b *testing.B) {
	r := rng(13)
	var boxes [64]OBB
	for i := range boxes {
		boxes[i] = randOBB(r)
	}
	for i := 0; i < b.N; i++ {
		sinkB = boxes[i&63].Overlaps(boxes[(i+17)&63])
	}
}

func BenchmarkAABBTransform(b *testing.B) {
	box := AABB{Vec3{-1, -2, -3}, Vec3{1, 2, 3}}
	tr := Pose{P: Vec3{1, 2, 3}, Q: QuatAxisAngle(Vec3{1, 2, 3}, 0.7)}.Transform()
	for i := 0; i < b.N; i++ {
		sinkV = box.Transform(tr).Min
	}
}

// TestClosestSegmentPoints compares the closest points of random segments
// (some degenerate, some parallel) with a brute-force search over a grid
// of parameters refined around its best cell.
func TestClosestSegmentPoints(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rv := func() Vec3 { return Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()} }
	for k := 0; k < 500; k++ {
		p0, p1, q0, q1 := rv(), rv(), rv(), rv()
		switch k % 5 {
		case 1:
			p1 = p0 // a point
		case 2:
			q1 = q0.Add(p1.Sub(p0).Scale(r.Float64())) // parallel
		}
		s, u, pa, pb := ClosestSegmentPoints(p0, p1, q0, q1)
		if s < 0 || s > 1 || u < 0 || u > 1 || pa.Sub(p0.Lerp(p1, s)).Norm() > 1e-12 || pb.Sub(q0.Lerp(q1, u)).Norm() > 1e-12 {
			t.Fatalf("case %d: parameters %v %v do not give the points", k, s, u)
		}
		got := pa.Sub(pb).Norm()
		// Brute force: a 60 x 60 grid, then finer grids around the best.
		best, bs, bu := math.Inf(1), 0.0, 0.0
		lo, hi, lo2, hi2 := 0.0, 1.0, 0.0, 1.0
		for pass := 0; pass < 3; pass++ {
			const n = 60
			for i := 0; i <= n; i++ {
				for j := 0; j <= n; j++ {
					x, y := lo+(hi-lo)*float64(i)/n, lo2+(hi2-lo2)*float64(j)/n
					if d := p0.Lerp(p1, x).Sub(q0.Lerp(q1, y)).Norm(); d < best {
						best, bs, bu = d, x, y
					}
				}
			}
			w, w2 := 2*(hi-lo)/n, 2*(hi2-lo2)/n
			lo, hi, lo2, hi2 = max(0, bs-w), min(1, bs+w), max(0, bu-w2), min(1, bu+w2)
		}
		if got > best+1e-9 || got < best-1e-4 {
			t.Fatalf("case %d: distance %v, brute force %v", k, got, best)
		}
	}
}

// TestLexLess checks Vec3.LexLess against slices.Compare of the
// coordinates, on points with many equal coordinates.
func TestLexLess(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	less := 0
	for i := 0; i < 2000; i++ {
		c := func() float64 { return float64(r.IntN(3) - 1) }
		a, b := V(c(), c(), c()), V(c(), c(), c())
		want := slices.Compare([]float64{a.X, a.Y, a.Z}, []float64{b.X, b.Y, b.Z}) < 0
		if got := a.LexLess(b); got != want {
			t.Fatalf("%v.LexLess(%v) = %v, want %v", a, b, got, want)
		}
		if want {
			less++
		}
	}
	if less < 600 || less > 1400 {
		t.Fatalf("%d of 2000 pairs ordered: the cases do not mix", less)
	}
}

// TestMaxAxis checks every vector with components in {-1, 0, 1, 2} against
// the definition: the smallest index holding the largest component.
func TestMaxAxis(t *testing.T) {
	vals := []float64{-1, 0, 1, 2}
	for _, x := range vals {
		for _, y := range vals {
			for _, z := range vals {
				c := [3]float64{x, y, z}
				top := math.Max(x, math.Max(y, z))
				want := 0
				for c[want] != top {
					want++
				}
				if got := (Vec3{x, y, z}).MaxAxis(); got != want {
					t.Errorf("%v.MaxAxis() = %d, want %d", Vec3{x, y, z}, got, want)
				}
			}
		}
	}
}

// TestMulVecAdd checks m v + c against the products and sums written out
// component by component (each product rounded on its own), on random
// matrices and vectors of widely spread magnitudes: equal up to the
// rounding of the sum (bit for bit where the compiler does not fuse a
// product with a sum, as on amd64).
func TestMulVecAdd(t *testing.T) {
	r := rng(41)
	x := func() float64 { return (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(13)-6)) }
	for range 1000 {
		var m Mat3
		for i := range 3 {
			for j := range 3 {
				m[i][j] = x()
			}
		}
		v, c := Vec3{x(), x(), x()}, Vec3{x(), x(), x()}
		got := m.MulVecAdd(v, c)
		for i, ci := range [3]float64{c.X, c.Y, c.Z} {
			p0, p1, p2 := float64(m[i][0]*v.X), float64(m[i][1]*v.Y), float64(m[i][2]*v.Z)
			want := p0 + p1 + p2 + ci
			scale := math.Abs(p0) + math.Abs(p1) + math.Abs(p2) + math.Abs(ci)
			if g := got.Get(i); math.Abs(g-want) > 4e-16*scale {
				t.Fatalf("MulVecAdd(%v, %v) with m %v: component %d = %v, want %v", v, c, m, i, g, want)
			}
		}
	}
}
