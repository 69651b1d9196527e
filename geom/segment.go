package geom

// ClosestSegmentPoints returns the closest points pa = p0 + s (p1 - p0) and
// pb = q0 + u (q1 - q0) of the segments p0p1 and q0q1, with s and u in
// [0, 1] (Ericson, Real-Time Collision Detection, Sec. 5.1.9). Degenerate
// segments (points) are allowed; for parallel segments one of the closest
// pairs is returned.
func ClosestSegmentPoints(p0, p1, q0, q1 Vec3) (s, u float64, pa, pb Vec3) {
	d1, d2, r := p1.Sub(p0), q1.Sub(q0), p0.Sub(q0)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	switch {
	case a == 0 && e == 0:
		return 0, 0, p0, q0
	case a == 0:
		u = clamp01(f / e)
	default:
		c := d1.Dot(r)
		if e == 0 {
			s = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			if den := a*e - b*b; den > 0 {
				s = clamp01((b*f - c*e) / den)
			}
			u = (b*s + f) / e
			if u < 0 {
				u, s = 0, clamp01(-c/a)
			} else if u > 1 {
				u, s = 1, clamp01((b-c)/a)
			}
		}
	}
	return s, u, p0.AddScaled(s, d1), q0.AddScaled(u, d2)
}

// clamp01 clamps x to [0, 1].
func clamp01(x float64) float64 { return min(1, max(0, x)) }
