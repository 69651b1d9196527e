package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// MassProps are the mass properties of a uniform solid.
type MassProps struct {
	Volume float64   // m³
	Mass   float64   // kg
	Center geom.Vec3 // centre of mass, mesh frame
	// Inertia is the inertia tensor about the centre of mass, in the mesh's
	// axes, kg m².
	Inertia geom.Mat3
}

// ErrNotSolid is wrapped by MassProperties' errors about the mesh.
var ErrNotSolid = errors.New("not a closed, consistently oriented solid")

// MassProperties returns the mass properties of the solid bounded by a
// closed, consistently oriented mesh of uniform density (kg/m³): the exact
// volume integrals of the signed tetrahedra spanned by the origin and the
// faces' triangles (the divergence theorem; Eberly, "Polyhedral Mass
// Properties (Revisited)", and Tonon, "Explicit exact formulas for the 3-D
// tetrahedron inertia tensor in terms of its vertex coordinates", J. Math.
// Stat. 2005). Package mesh is the home for a general version of this
// function; until it has one, this is the one the simulator uses for bodies
// built in code (BodyDef wants mass and inertia about the centre of mass).
func MassProperties(m *mesh.Mesh, density float64) (MassProps, error) {
	if m == nil || m.NumFaces() == 0 || !m.Closed() || !m.Oriented() {
		return MassProps{}, fmt.Errorf("sim: mass properties: %w", ErrNotSolid)
	}
	if !(density > 0) || math.IsInf(density, 0) {
		return MassProps{}, fmt.Errorf("sim: mass properties: density %v must be positive and finite", density)
	}
	// Integrals relative to a point inside the bounding box keep the
	// products small: the mesh's box centre.
	o := m.Bounds().Center()
	var vol float64
	var first geom.Vec3
	var cov geom.Mat3 // ∫ x xᵀ dV about o
	for f := 0; f < m.NumFaces(); f++ {
		loop := m.Face(f)
		a := m.Verts[loop[0]].Sub(o)
		for k := 1; k+1 < len(loop); k++ {
			b, c := m.Verts[loop[k]].Sub(o), m.Verts[loop[k+1]].Sub(o)
			det := a.Dot(b.Cross(c)) // 6 × signed volume
			vol += det / 6
			s := a.Add(b).Add(c)
			first = first.AddScaled(det/24, s)
			// ∫ x xᵀ over the tetrahedron (0, a, b, c):
			// det/120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ).
			cov = cov.Add(geom.Outer(a, a).Add(geom.Outer(b, b)).Add(geom.Outer(c, c)).Add(geom.Outer(s, s)).Scale(det / 120))
		}
	}
	if !(vol > 0) {
		return MassProps{}, fmt.Errorf("sim: mass properties: volume %v: %w (faces must turn counter-clockwise seen from outside)", vol, ErrNotSolid)
	}
	cm := first.Scale(1 / vol)
	// Covariance about the centre of mass, then I = tr(C) 1 - C.
	cov = cov.Add(geom.Outer(cm, cm).Scale(-vol))
	tr := cov[0][0] + cov[1][1] + cov[2][2]
	I := geom.Identity().Scale(tr).Add(cov.Scale(-1)).Scale(density)
	return MassProps{Volume: vol, Mass: density * vol, Center: cm.Add(o), Inertia: I}, nil
}

// Centered returns a copy of m moved so that the point c (its centre of
// mass, from MassProperties) is at the origin, as BodyDef requires.
func Centered(m *mesh.Mesh, c geom.Vec3) (*mesh.Mesh, error) {
	verts := make([]geom.Vec3, len(m.Verts))
	for i, v := range m.Verts {
		verts[i] = v.Sub(c)
	}
	faces := make([][]int, m.NumFaces())
	for f := range faces {
		for _, v := range m.Face(f) {
			faces[f] = append(faces[f], int(v))
		}
	}
	out, err := mesh.New(verts, faces, nil)
	if err != nil {
		return nil, fmt.Errorf("sim: centring mesh: %w", err)
	}
	return out, nil
}
