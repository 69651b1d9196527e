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

// Rounding pads of bounds and positions.
const (
	// relPad is the relative pad of computed bounds (sphere radii,
	// speeds, curve deviations) for the rounding of their terms.
	relPad = 1e-9
	// lenTol (times the length scale) is the positional rounding
	// tolerance: records' base margin, the swept-sphere test's slack,
	// and the distance within which a vertex is in a face.
	lenTol = 1e-9
	// sphereAbsPad (times the mesh's radius) is the absolute pad of face
	// and cluster bounding spheres, for the rounding of the transforms.
	sphereAbsPad = 1e-12
	// minScale keeps the length scale positive for degenerate meshes.
	minScale = 1e-300
	// facingRel is the relative slack of the facing test (Sec. 4.2): a
	// face within facingRel of edge-on under the flow is kept.
	facingRel = 1e-9
	// cullPad (times the length scale) pads the culling spheres and
	// boxes of cull.go and boxcull.go.
	cullPad = 1e-5
	// vertexFarAbs (times the length scale) is the absolute slack of the
	// test that a vertex is too far above a plane to reach it.
	vertexFarAbs = 1e-15
	// unitMin2 is the squared length beyond which unit rescales before
	// normalizing (1/unitMin2 above).
	unitMin2 = 1e-200
)

// Time pads, in units of the step.
const (
	// timePad widens candidate windows and the records' time margins.
	timePad = 1e-9
	// timeAbsPad is the absolute pad of the earliest time a vertex can
	// reach a plane (scan.go).
	timeAbsPad = 1e-12
	// maskTimePad widens the window of a mask of culling intervals.
	maskTimePad = 1e-6
)

// Root finding (exact.go, exact_taylor.go).
const (
	// refineBracket and refineStep stop refineN: the bracket or the
	// Newton step is this short (in time).
	refineBracket = 1e-13
	refineStep    = 1e-14
	// boundPad is the relative pad of the fourth-derivative bounds.
	boundPad = 1e-12
	// minModelHalf is the half-width (time) below which an interval that
	// a Taylor model neither refutes nor proves monotone is decided by
	// the signs of its exact end values (a double root within rounding).
	minModelHalf = 2.5e-10
	// modelNewtonStop stops the Newton steps on a Taylor model (time).
	modelNewtonStop = 1e-9
	// polishStop is the error (time) at which polish stops.
	polishStop = 1e-16
	// errEstSeries is the angle below which ErrorEstimate uses its series
	// theta/8.
	errEstSeries = 1e-8
)

// Features and properness.
const (
	// atanErr bounds the absolute error of fastAtan2 in radians. Its
	// polynomial (Abramowitz and Stegun 4.4.49) is accurate to 2e-8 on
	// [0, 1]; the bound leaves room for rounding in the octant reduction,
	// and TestFastAtan2 checks it against math.Atan2 by dense sampling.
	atanErr = 1e-7
	// endEps is the relative distance from an edge's end below which an
	// edge-edge contact is treated as involving the vertex (Sec. 5: VV, EV
	// and VE contacts are resolved into VF and FV ones).
	endEps = 1e-7
	// propPad is the slack of properness bounds used to skip candidates.
	propPad = 1e-9
	// parallelSin2 is the squared sine below which two edges are
	// parallel; parallelCoplanar (relative to the edges' lengths and the
	// length scale) the size of coplanarity coefficients below which two
	// parallel edges stay coplanar.
	parallelSin2     = 1e-24
	parallelCoplanar = 1e-12
	// lineDenRel is the relative size below which the closest points of
	// two lines are undefined (parallel lines).
	lineDenRel = 1e-12
	// eeMeetRel (times the length scale) is the distance within which the
	// closest points of two edges at a root of their coplanarity function
	// count as meeting.
	eeMeetRel = 1e-6
)

// The projection (raster.go).
const (
	// azimuthGuard (radians) is the distance from a branch's edge within
	// which the exact azimuth decides instead of the fast one.
	azimuthGuard = 1e-6
	// onAxisRel2 is the squared relative distance within which a point
	// lies on the screw axis.
	onAxisRel2 = 1e-24
	// cutAngleTol (radians, or relative) is the tolerance of lying on the
	// azimuth cut or at the doppel wedge's edge.
	cutAngleTol = 1e-12
	// crossSinMin is the sine of the angle between two screen chords
	// below which their crossing does not narrow their time window.
	crossSinMin = 1e-3
)
