package screw

// The tolerances of the detector, in one place. Lengths are relative to the
// problem's length scale (the larger bounding radius, Detector.scale) unless
// they say otherwise; times are in units of the step ([0, 1]); angles in
// radians.

const (
	// translationTheta is the rotation angle below which a relative motion
	// is a pure translation: it moves no point within MaxCoord of the
	// origin by more than 1e-85 length units, far below rounding.
	translationTheta = 1e-100

	// smallTheta is the rotation angle below which the detector uses its
	// small-rotation mode (Detector.small): the screw axis is then more
	// than |displacement| / smallTheta away, too far for a screen centred
	// on it to resolve the bodies; the screen is an orthogonal projection
	// along the displacement, widened by the screw's deviation from the
	// translation (at most smallTheta times the body's size), and every
	// candidate is still solved on the exact screw.
	smallTheta = 1e-5

	// smallDevPad is the relative pad on the deviation bound of the
	// small-rotation mode, for the rounding of its terms.
	smallDevPad = 1e-6

	// roundRel is the relative rounding allowance of a Taylor model's
	// value and slope (exact_taylor.go), about 50 ulps of the terms' sizes.
	roundRel = 1e-14

	// restTouchRel (times the larger bounding radius) is the distance
	// within which features of the start poses count as touching
	// (Separation 0) and the default rest margin.
	restTouchRel = 1e-9

	// dupTime is the time (step units) within which two reports of the
	// same feature pair are one contact (dedupe, and a motion's contact
	// at t = 0 repeating a resting one).
	dupTime = 1e-9

	// maxCachedMeshes bounds the Detector's cache of mesh data.
	maxCachedMeshes = 64
)
