package screw

import (
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Record returns the collision as the contact record shared by every
// narrow phase (package contact). Features: VF is vertex FeatureA of A and
// face FeatureB of B, FV face FeatureA of A and vertex FeatureB of B, EE
// edge FeatureA of A and edge FeatureB of B. Status: a resting contact
// (Resting) is contact.Penetrating when its Separation is negative,
// contact.Touching when it is 0 and contact.Near when positive; a near
// pair of conservative mode is contact.Near with its Separation (the
// distance between the features at Time); any other collision is
// contact.Hit at its time of impact, Separation 0. The normal (from A to
// B), point and time are the collision's; Properness is always defined
// (HasProperness).
func (c Collision) Record() contact.Contact {
	r := contact.Contact{
		Time: c.Time, Point: c.Point, Normal: c.Normal, Separation: c.Separation,
		Properness: c.Properness, HasProperness: true,
	}
	switch c.Kind {
	case contact.VertexFace:
		r.FeatureA, r.FeatureB = contact.V(c.FeatureA), contact.F(c.FeatureB)
	case contact.FaceVertex:
		r.FeatureA, r.FeatureB = contact.F(c.FeatureA), contact.V(c.FeatureB)
	default:
		r.FeatureA, r.FeatureB = contact.E(c.FeatureA), contact.E(c.FeatureB)
	}
	switch {
	case c.Resting && c.Separation < 0:
		r.Status = contact.Penetrating
	case c.Resting && c.Separation == 0:
		r.Status = contact.Touching
	case c.Resting || c.Near:
		r.Status = contact.Near
	default:
		r.Status = contact.Hit
		r.Separation = 0
	}
	return r
}

// Contacts is Detect producing the shared contact records (Record): it
// appends to dst every contact of the step, sorted by time, and returns
// the extended slice. Repeated calls allocate nothing once the Detector's
// buffers and dst have grown.
func (d *Detector) Contacts(a, b *mesh.Mesh, a0, a1, b0, b1 geom.Pose, opt *Options, dst []contact.Contact) ([]contact.Contact, error) {
	var err error
	d.cbuf, err = d.Detect(a, b, a0, a1, b0, b1, opt, d.cbuf[:0])
	for i := range d.cbuf {
		dst = append(dst, d.cbuf[i].Record())
	}
	return dst, err
}
