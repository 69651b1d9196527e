package screw

import (
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Prepared is the pose-independent data the detector needs of one mesh:
// its bounding sphere, typical edge length, face and face-cluster bounding
// spheres, face neighbourhoods and whether it is a solid (closed and
// consistently oriented) or two-sided. Build it once per body with Prepare
// and pass it to the *Prepared methods of any number of Detectors (it is
// read-only and safe for concurrent use). The mesh must not change after it
// has been prepared: the data would be stale, and nothing detects it.
type Prepared struct {
	m    *mesh.Mesh
	info *meshInfo
}

// Prepare computes the pose-independent data of mesh m (nil for a nil
// mesh).
func Prepare(m *mesh.Mesh) *Prepared {
	if m == nil {
		return nil
	}
	return &Prepared{m: m, info: newMeshInfo(m)}
}

// Mesh returns the prepared mesh.
func (p *Prepared) Mesh() *mesh.Mesh {
	if p == nil {
		return nil
	}
	return p.m
}

// use makes the Detector's queries read the prepared data of a and b
// instead of its own cache, until the returned function is called.
func (d *Detector) use(a, b *Prepared) func() {
	d.pre = [2]*Prepared{a, b}
	return func() { d.pre = [2]*Prepared{} }
}

// DetectPrepared is Detect on prepared meshes.
func (d *Detector) DetectPrepared(a, b *Prepared, a0, a1, b0, b1 geom.Pose, opt *Options, dst []Collision) ([]Collision, error) {
	defer d.use(a, b)()
	return d.Detect(a.Mesh(), b.Mesh(), a0, a1, b0, b1, opt, dst)
}

// FirstContactPrepared is FirstContact on prepared meshes.
func (d *Detector) FirstContactPrepared(a, b *Prepared, a0, a1, b0, b1 geom.Pose, opt *Options) (hit bool, toc float64, err error) {
	defer d.use(a, b)()
	return d.FirstContact(a.Mesh(), b.Mesh(), a0, a1, b0, b1, opt)
}

// ContactsPrepared is Contacts on prepared meshes.
func (d *Detector) ContactsPrepared(a, b *Prepared, a0, a1, b0, b1 geom.Pose, opt *Options, dst []contact.Contact) ([]contact.Contact, error) {
	defer d.use(a, b)()
	return d.Contacts(a.Mesh(), b.Mesh(), a0, a1, b0, b1, opt, dst)
}
