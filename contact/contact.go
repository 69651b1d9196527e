// Package contact defines the contact record that every narrow phase of
// collide produces and that package world passes through unchanged: when,
// where, along which normal, how far apart or how deep, between which
// features, and how sure the method is.
//
// Conventions, the same in every package:
//
//   - Time is the fraction of the step, in [0, 1]: 0 is the start poses, 1
//     the end poses. Continuous methods report the time of first contact on
//     the step's motion; discrete methods report the time of the poses they
//     tested (1 for the end poses of a step).
//   - Point is in world coordinates at Time.
//   - Normal is a unit vector in world coordinates pointing from body A
//     towards body B: moving B along Normal separates the two.
//   - Separation is signed: positive for a gap (near and speculative
//     contacts), zero at a time of impact or for touching surfaces, negative
//     for overlap (minus the penetration depth).
//   - Features name the touching parts in the meshes' own numbering
//     (vertex, edge and face indices of package mesh).
package contact

import (
	"fmt"
	"math"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/enumname"
)

// Status says what a contact record asserts. Its zero value, Unknown, is
// never produced by a method: a record with Status Unknown has not been
// filled in.
type Status uint8

const (
	// Unknown is the zero value: no answer.
	Unknown Status = iota
	// Hit is a time of impact during the step: the surfaces meet at Time
	// (Separation 0) while approaching.
	Hit
	// Touching means the surfaces are in contact at Time without a
	// measurable gap or overlap (|Separation| within the method's
	// tolerance), for instance bodies resting on each other.
	Touching
	// Penetrating means the solids overlap at Time by -Separation.
	Penetrating
	// Near means the features come within a margin of each other at Time
	// without touching (Separation > 0): a speculative contact, or a near
	// pair of a conservative method.
	Near
	// Unconfirmed means a conservative test could not rule out contact at
	// Time within its budget but did not confirm it either; Time is the
	// earliest time not ruled out.
	Unconfirmed
	numStatus
)

var statusNames = [numStatus]string{"unknown", "hit", "touching", "penetrating", "near", "unconfirmed"}

// String returns the status's name.
func (s Status) String() string { return enumname.Of(statusNames[:], s, "Status") }

// Colliding reports whether the status asserts that the bodies meet: Hit,
// Touching or Penetrating. Near and Unconfirmed records are not collisions
// but a simulation may still act on them.
func (s Status) Colliding() bool { return s == Hit || s == Touching || s == Penetrating }

// FeatureKind is the kind of a mesh feature.
type FeatureKind uint8

const (
	// NoFeature means the method does not say which feature touches.
	NoFeature FeatureKind = iota
	// Vertex is a vertex of the mesh.
	Vertex
	// Edge is an edge of the mesh (package mesh's edge numbering).
	Edge
	// Face is a face (polygon) of the mesh, or a triangle of a soup.
	Face
	numFeatureKinds
)

var featureNames = [numFeatureKinds]string{"none", "vertex", "edge", "face"}

// String returns the kind's name.
func (k FeatureKind) String() string { return enumname.Of(featureNames[:], k, "FeatureKind") }

// PairKind says which features of A and B meet in an elementary contact or
// query: a vertex of A against a face of B, a face of A against a vertex of
// B, or an edge of each (Buss, "Collision detection with relative screw
// motion", Sec. 5; Jansen, "Elementary continuous collision detection").
type PairKind uint8

const (
	// VertexFace is a vertex of A against a face of B.
	VertexFace PairKind = iota
	// FaceVertex is a face of A against a vertex of B.
	FaceVertex
	// EdgeEdge is an edge of A against an edge of B.
	EdgeEdge
	numPairKinds
)

var pairNames = [numPairKinds]string{"vf", "fv", "ee"}

// String returns "vf", "fv" or "ee".
func (k PairKind) String() string { return enumname.Of(pairNames[:], k, "PairKind") }

// ParsePairKind accepts "vf", "vertex-face", "fv", "face-vertex", "ee" and
// "edge-edge", in any case.
func ParsePairKind(s string) (PairKind, error) {
	switch strings.ToLower(s) {
	case "vf", "vertex-face":
		return VertexFace, nil
	case "fv", "face-vertex":
		return FaceVertex, nil
	case "ee", "edge-edge":
		return EdgeEdge, nil
	}
	return 0, fmt.Errorf("contact: unknown pair kind %q (want vf, fv or ee)", s)
}

// Feature names a vertex, edge or face of a body's mesh.
type Feature struct {
	Kind  FeatureKind
	Index int32 // index in the mesh's numbering of Kind; meaningless for NoFeature
}

// V returns the vertex feature with index i.
func V(i int32) Feature { return Feature{Vertex, i} }

// E returns the edge feature with index i.
func E(i int32) Feature { return Feature{Edge, i} }

// F returns the face feature with index i.
func F(i int32) Feature { return Feature{Face, i} }

// String formats the feature as kind and index, for instance "edge 12".
func (f Feature) String() string {
	if f.Kind == NoFeature {
		return "none"
	}
	return fmt.Sprintf("%v %d", f.Kind, f.Index)
}

// ID returns a key for the pair of features of a contact that stays the same
// from step to step while the same features touch, so that a solver can
// match a contact with the previous step's and warm start it. Records with
// NoFeature on both sides share the key 0.
func (c *Contact) ID() uint64 {
	pack := func(f Feature) uint64 { return uint64(f.Kind)<<30 | uint64(uint32(f.Index))&(1<<30-1) }
	return pack(c.FeatureA)<<32 | pack(c.FeatureB)
}

// Contact is one contact of a pair of bodies A and B. Every field follows
// the package conventions; see the package comment.
type Contact struct {
	// Status says what the record asserts; see Status.
	Status Status
	// Time in [0, 1] of the step at which the contact holds.
	Time float64
	// Point is the contact point in world coordinates at Time.
	Point geom.Vec3
	// Normal is the unit contact normal in world coordinates at Time,
	// pointing from A towards B.
	Normal geom.Vec3
	// Separation is the signed distance along Normal: > 0 a gap, 0 touching
	// or at impact, < 0 minus the depth of overlap.
	Separation float64
	// FeatureA and FeatureB are the features of A and B that touch.
	FeatureA, FeatureB Feature
	// Properness is Buss's properness (Collision Detection with Relative
	// Screw Motion, Sec. 5) when HasProperness is set: >= 0 when the two
	// surfaces properly face each other at the contact, negative (down to
	// -1) when they already interpenetrate there. Methods that do not
	// define it leave HasProperness false and Properness 0.
	Properness    float64
	HasProperness bool
}

// Flip returns the record seen from the other body: A and B swapped, the
// normal negated. Time, point, separation and status are unchanged.
func (c Contact) Flip() Contact {
	c.Normal = c.Normal.Neg()
	c.FeatureA, c.FeatureB = c.FeatureB, c.FeatureA
	return c
}

// Validate returns an error when the record breaks the package conventions:
// status Unknown or out of range, time outside [0, 1] or not finite, a point
// that is not finite, a normal that is not unit to within 1e-9 or a
// separation that is not finite.
func (c *Contact) Validate() error {
	if c.Status == Unknown || c.Status >= numStatus {
		return fmt.Errorf("contact: status %v", c.Status)
	}
	if !(c.Time >= 0 && c.Time <= 1) {
		return fmt.Errorf("contact: time %v outside [0, 1]", c.Time)
	}
	if !c.Point.IsFinite() {
		return fmt.Errorf("contact: point %v not finite", c.Point)
	}
	if n := c.Normal.Norm(); math.Abs(n-1) > 1e-9 {
		return fmt.Errorf("contact: normal %v has length %v, want 1", c.Normal, n)
	}
	if math.IsNaN(c.Separation) || math.IsInf(c.Separation, 0) {
		return fmt.Errorf("contact: separation %v not finite", c.Separation)
	}
	return nil
}

// String formats the record on one line.
func (c Contact) String() string {
	s := fmt.Sprintf("%v t=%.17g p=%v n=%v sep=%.3g %v/%v", c.Status, c.Time, c.Point, c.Normal, c.Separation, c.FeatureA, c.FeatureB)
	if c.HasProperness {
		s += fmt.Sprintf(" properness=%.3g", c.Properness)
	}
	return s
}
