package screw

import (
	"fmt"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// Collision is one contact event of the step.
type Collision struct {
	// Kind says which features meet: VF (contact.VertexFace), FV
	// (contact.FaceVertex) or EE (contact.EdgeEdge).
	Kind contact.PairKind
	// Time of the contact in [0, 1].
	Time float64
	// Point is the contact point in world coordinates at Time (A's pose is
	// interpolated from its start to its end pose by the screw motion of
	// geom.ScrewPose).
	Point geom.Vec3
	// Normal is the unit collision normal in world coordinates at Time,
	// pointing from A towards B: the outward normal of A's face for FV, the
	// inward normal of B's face for VF, along eA x eB for EE (sign chosen
	// as in Buss Sec. 5).
	Normal geom.Vec3
	// Properness is Buss's properness (Sec. 5): >= 0 when the two surfaces
	// properly face each other at the contact, negative (down to -1) when
	// they already interpenetrate there. For EE it is formula (7).
	Properness float64
	// FeatureA and FeatureB are the indices of the features involved, in
	// the meshes' numbering: for VF a vertex of A and a face of B, for FV a
	// face of A and a vertex of B, for EE an edge of A and an edge of B.
	FeatureA, FeatureB int32
	// Near is set in conservative mode for feature pairs that come within
	// one pixel of each other without touching, while approaching (on
	// faces that face each other under the motion); Time is then a time at
	// which they are that close (the earliest one, to the time resolution,
	// for edges that pass close without becoming coplanar) and Point lies
	// between the two features at that time. A near pair is within two
	// pixels at its Time.
	Near bool
	// Resting is set for a contact of the start poses (Time 0): the two
	// features already touch, overlap or lie within Options.RestMargin of
	// each other at t = 0 (see Detect).
	Resting bool
	// Separation is the signed distance between the two features at Time,
	// along Normal: 0 at a contact found on the motion (the time of
	// impact) and for resting features that touch (within 1e-9 of the
	// larger body's bounding radius), positive for a near pair or a
	// resting pair apart by less than the margin, negative (minus the
	// depth of the vertex behind the face, or of one edge behind the
	// other) for resting features that overlap.
	Separation float64
}

// String formats the collision on one line, with full-precision point and
// normal.
func (c Collision) String() string {
	near := ""
	if c.Near {
		near = " near"
	}
	if c.Resting {
		near = fmt.Sprintf(" resting separation=%.3g", c.Separation)
	} else if c.Near {
		near += fmt.Sprintf(" separation=%.3g", c.Separation)
	}
	return fmt.Sprintf("%v A%d B%d t=%.6g point=%v normal=%v properness=%.3g%s",
		c.Kind, c.FeatureA, c.FeatureB, c.Time, c.Point, c.Normal, c.Properness, near)
}

// Default option values.
const (
	// DefaultPixelsPerEdge is the medium resolution of Buss Sec. 9.1: a
	// typical short edge is about 12 pixels long on the collision screen.
	DefaultPixelsPerEdge = 12
	// DefaultTimeResolution is the accuracy of the time coordinate kept in
	// the pixel records (the divide-and-conquer projection of Sec. 9 stops
	// when both the position and the time are this accurate).
	DefaultTimeResolution = 1.0 / 16
	// DefaultProperness is the properness threshold of Sec. 9 ("-0.1 works
	// well for driving game applications").
	DefaultProperness = -0.1
	// ProperOnly is a properness threshold that keeps only proper
	// collisions (properness >= 0 up to rounding).
	ProperOnly = -1e-12
	// AllProperness is a threshold that keeps every collision.
	AllProperness = -2.0
)

// Options tune a Detector query. The zero value means the defaults.
type Options struct {
	// PixelSize is the side of a collision-screen pixel in length units.
	// 0 means: Accuracy if set, else the typical short edge of the two
	// meshes divided by PixelsPerEdge.
	PixelSize float64
	// PixelsPerEdge sets the resolution relative to the meshes: a typical
	// short edge (the 25th percentile of edge lengths) covers about this
	// many pixels. For FirstContact on meshes of 2048 faces or more in all
	// without Conservative or PixelRows, the typical edge is instead the
	// median length of the edges kept near the first contact, so
	// that short edges elsewhere (thin walls of CAD meshes) do not make
	// the projection of long edges needlessly fine; answers are the same
	// at any pixel size. 0 means DefaultPixelsPerEdge (12, Buss's medium
	// resolution; 6 is his low and 24 his high resolution).
	PixelsPerEdge float64
	// TimeResolution is the time accuracy of pixel records, in units of the
	// step. 0 means DefaultTimeResolution.
	TimeResolution float64
	// Properness is the threshold below which collisions are dropped. 0
	// means DefaultProperness (-0.1); use ProperOnly or AllProperness for
	// the extremes.
	Properness float64
	// Conservative also reports (with Near set) feature pairs that come
	// within one pixel of each other (Buss Sec. 10), so that over many steps
	// two bodies cannot end up interpenetrating without a report.
	Conservative bool
	// PixelRows makes every row of the collision screen one pixel high, as
	// in Buss's implementation (Sec. 9: one pixel record per edge and pixel
	// row). By default rows are about half a typical short edge high, so an
	// edge has only a few records, and each candidate pair of records is
	// then checked against the two projected segments at pixel accuracy:
	// the same candidates, found with less work.
	PixelRows bool
	// Accuracy, when PixelSize is 0, is the requested accuracy in length
	// units: the pixel size is set to it (it is the distance below which
	// conservative mode reports near misses, and the positional resolution
	// of the screen).
	Accuracy float64
	// TwoSided treats the faces of both meshes as two-sided: no face is
	// culled for facing away from the motion (Buss Sec. 4.2), and a vertex
	// is reported entering a face from either side (through the back, the
	// reported normal is the face's normal reversed). A mesh that is not
	// closed or not consistently oriented (mesh.Mesh Closed, Oriented) is
	// always treated so, whatever this field says: its faces have no
	// outside, and culling by facing would lose contacts.
	TwoSided bool
	// RestMargin (length units) is the distance within which feature
	// pairs of the start poses are reported as resting contacts (Time 0,
	// Resting set, with their Separation): two bodies at rest on each
	// other get their contact features whether or not they move. 0 means
	// 1e-9 times the larger body's bounding radius: only touching or
	// overlapping pairs.
	RestMargin float64
}
