package screw

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// Culling of small meshes by their bounding boxes (beyond the paper, like
// cull.go). For meshes too small for per-face culling, the step is still cut
// into cullK intervals, and in each the bounding box of B, placed at the
// middle of the interval and enlarged by the farthest any of its points
// moves within half an interval, is tested against the bounding box of A by
// the separating-axis test of two oriented boxes (15 axes, in A's box
// frame as in Gottschalk's OBB-tree test). The intervals where the boxes may
// overlap bound the collision times of every feature pair, and a step where
// they never overlap has no collision.

// boxMask returns the mask of the intervals in which the bounding boxes of
// A and B may come within pad of each other. For FirstContact (d.first) it
// stops at the first such interval and keeps every later one: only the
// start of the contact windows matters there.
func (d *Detector) boxMask(pad float64) uint32 {
	ia, ib := d.a.info, d.b.info
	ta, tb := &d.tr[0], &d.tr[1]
	// Q turns screen-frame vectors into A's box frame (rows: A's axes).
	Q := ta.R.Transpose()
	cA := ta.Apply(ia.center)
	cB := tb.Apply(ib.center)
	a := [3]float64{ia.half.X, ia.half.Y, ia.half.Z}
	b := [3]float64{ib.half.X, ib.half.Y, ib.half.Z}
	// The farthest a point of B's box moves in half an interval: its
	// distance from the screw axis is at most rmax.
	rmax := 0.0
	if !d.trans {
		rmax = hypot(cB.X-d.u.X, cB.Z-d.u.Z) + math.Sqrt(b[0]*b[0]+b[1]*b[1]+b[2]*b[2])
	}
	ch := 2 * rmax * math.Sin(d.theta/(4*cullK))
	gl := math.Abs(d.g) / (2 * cullK)
	pad += math.Sqrt(ch*ch+gl*gl)*(1+relPad) + lenTol*d.scale
	// B's bounding sphere, in A's box frame, against A's box first; the
	// boxes only where the sphere does not separate.
	rs := min(ib.radius, math.Sqrt(b[0]*b[0]+b[1]*b[1]+b[2]*b[2])) + pad
	rs2 := rs * rs
	ri := min(b[0], b[1], b[2])
	ri2 := ri * ri
	// Rotation about the screw axis (y) by theta t at the middle of
	// interval k, by recurrence.
	c, s := 1.0, 0.0
	c1, s1 := 1.0, 0.0
	if !d.trans {
		s, c = math.Sincos(d.theta / (2 * cullK))
		s1, c1 = math.Sincos(d.theta / cullK)
	}
	rot := func(p geom.Vec3) geom.Vec3 { return geom.Vec3{X: p.X*c + p.Z*s, Y: p.Y, Z: -p.X*s + p.Z*c} }
	var m uint32
	for k := 0; k < cullK; k++ {
		if k > 0 {
			c, s = c*c1-s*s1, s*c1+c*s1
		}
		t := (float64(k) + 0.5) / cullK
		w := d.moveSC(cB, t, s, c, false)
		T := Q.MulVec(w.Sub(cA))
		ex := max(math.Abs(T.X)-a[0], 0)
		ey := max(math.Abs(T.Y)-a[1], 0)
		ez := max(math.Abs(T.Z)-a[2], 0)
		if e2 := ex*ex + ey*ey + ez*ez; e2 > rs2 {
			continue
		} else if e2 <= ri2 {
			// The ball inscribed in B's box meets A's box.
			m |= 1 << k
			if d.first {
				return m | allIntervals&^(1<<k-1)
			}
			continue
		}
		R := Q.Mul(geom.MatCols(rot(tb.R.Col(0)), rot(tb.R.Col(1)), rot(tb.R.Col(2))))
		if !boxesApart(&R, T, &a, &b, pad) {
			m |= 1 << k
			if d.first {
				// FirstContact only needs the first intervals exactly:
				// keep every later one.
				return m | allIntervals&^(1<<k-1)
			}
		}
	}
	return m
}

// boxesApart reports whether the box of half extents a at the origin of
// its frame and the box of half extents b with axes R (columns) and centre T
// in that frame, enlarged by pad, are separated along one of the 15 axes of
// the separating-axis test (Gottschalk's OBB test; every axis has length at
// most 1, so pad is a distance along each).
func boxesApart(R *geom.Mat3, T geom.Vec3, a, b *[3]float64, pad float64) bool {
	var A geom.Mat3
	for i := range 3 {
		for j := range 3 {
			A[i][j] = math.Abs(R[i][j])
		}
	}
	t := [3]float64{T.X, T.Y, T.Z}
	for i := range 3 {
		if math.Abs(t[i]) > a[i]+b[0]*A[i][0]+b[1]*A[i][1]+b[2]*A[i][2]+pad {
			return true
		}
	}
	for j := range 3 {
		if math.Abs(t[0]*R[0][j]+t[1]*R[1][j]+t[2]*R[2][j]) > a[0]*A[0][j]+a[1]*A[1][j]+a[2]*A[2][j]+b[j]+pad {
			return true
		}
	}
	for i := range 3 {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := range 3 {
			j1, j2 := (j+1)%3, (j+2)%3
			ra := a[i1]*A[i2][j] + a[i2]*A[i1][j]
			rb := b[j1]*A[i][j2] + b[j2]*A[i][j1]
			if math.Abs(t[i2]*R[i1][j]-t[i1]*R[i2][j]) > ra+rb+pad {
				return true
			}
		}
	}
	return false
}
