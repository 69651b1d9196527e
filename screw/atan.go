package screw

import "math"

// fastAtan2 returns atan2(y, x) within atanErr for finite y and x (0 for
// y = x = 0; the sign of a zero y is kept, as math.Atan2 does). It is used for the azimuths of the projection, whose records
// are widened by the resulting error (setup): the screen only has to be
// conservative, the exact helix solving decides the collision times.
func fastAtan2(y, x float64) float64 {
	ax, ay := math.Abs(x), math.Abs(y)
	if ax == 0 && ay == 0 {
		return 0
	}
	var a float64
	if ay <= ax {
		a = atanPoly(ay / ax)
	} else {
		a = math.Pi/2 - atanPoly(ax/ay)
	}
	if x < 0 {
		a = math.Pi - a
	}
	if math.Signbit(y) {
		a = -a
	}
	return a
}

// atanPoly approximates atan on [0, 1] (Abramowitz and Stegun 4.4.49),
// evaluated by Estrin's scheme (shorter dependency chains than Horner's).
func atanPoly(x float64) float64 {
	z := x * x
	z2 := z * z
	z4 := z2 * z2
	q0 := 1 - 0.3333314528*z
	q1 := 0.1999355085 - 0.1420889944*z
	q2 := 0.1065626393 - 0.0752896400*z
	q3 := 0.0429096138 - 0.0161657367*z
	r0 := q0 + q1*z2
	r1 := q2 + q3*z2
	return x * (r0 + z4*(r1+0.0028662257*z4))
}
