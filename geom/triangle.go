package geom

// ClosestTrianglePoint returns the point q of the closed triangle abc
// closest to p and its barycentric weights u (of b) and v (of c), so that q
// = (1-u-v) a + u b + v c (Ericson, Real-Time Collision Detection, Sec.
// 5.1.5: the Voronoi regions of the vertices, then of the edges, then the
// face). A degenerate triangle gives a closest point of its vertices and
// edges.
func ClosestTrianglePoint(p, a, b, c Vec3) (u, v float64, q Vec3) {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return 0, 0, a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return 1, 0, b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		t := d1 / (d1 - d3)
		return t, 0, a.AddScaled(t, ab)
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return 0, 1, c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		t := d2 / (d2 - d6)
		return 0, t, a.AddScaled(t, ac)
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		t := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return 1 - t, t, b.AddScaled(t, c.Sub(b))
	}
	den := va + vb + vc
	if !(den > 0) {
		// Degenerate: the nearest point of the three edges, with its
		// weights.
		_, s0, _, q0 := ClosestSegmentPoints(p, p, a, b)
		_, s1, _, q1 := ClosestSegmentPoints(p, p, b, c)
		_, s2, _, q2 := ClosestSegmentPoints(p, p, c, a)
		u, v, q = s0, 0, q0
		if q1.Sub(p).Norm() < q.Sub(p).Norm() {
			u, v, q = 1-s1, s1, q1
		}
		if q2.Sub(p).Norm() < q.Sub(p).Norm() {
			u, v, q = 0, 1-s2, q2
		}
		return u, v, q
	}
	v, w := vb/den, vc/den
	return v, w, a.AddScaled(v, ab).AddScaled(w, ac)
}
