package mesh

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

// MassProps are the mass properties of a uniform solid bounded by a closed
// mesh, in the mesh's local frame.
type MassProps struct {
	// Volume is the enclosed volume and Mass = density x Volume.
	Volume, Mass float64
	// Center is the centre of mass.
	Center geom.Vec3
	// Inertia is the inertia tensor about the centre of mass, in the
	// mesh's axes: Inertia[0][0] = integral of rho (y^2 + z^2) dV,
	// Inertia[0][1] = -integral of rho x y dV, and so on (symmetric,
	// positive definite for a solid).
	Inertia geom.Mat3
	// Principal holds the principal moments (eigenvalues of Inertia) in
	// ascending order, and the columns of Axes the matching unit principal
	// axes: Inertia = Axes diag(Principal) Axes^T, with det(Axes) = +1.
	Principal geom.Vec3
	Axes      geom.Mat3
}

// MassProperties returns the volume, mass, centre of mass, inertia tensor
// about the centre of mass and principal axes of the uniform solid of the
// given density (mass per unit volume) that m bounds.
//
// The integrals are exact for the polyhedron (up to rounding): by the
// divergence theorem the solid is the signed sum of the tetrahedra joining
// a reference point to each triangle of the faces, and each tetrahedron's
// volume, first and second moments have closed forms (Mirtich, "Fast and
// Accurate Computation of Polyhedral Mass Properties", 1996, reduces the
// same volume integrals to face and then edge integrals; the tetrahedron
// form used here is the one of Eberly's "Polyhedral Mass Properties
// (Revisited)", 2002, and of Tonon, "Explicit Exact Formulas for the 3-D
// Tetrahedron Inertia Tensor", 2004). The reference point is the centre
// of the bounding box, which keeps the sums accurate for meshes far from
// the origin. The principal axes come from the cyclic Jacobi eigenvalue
// method on the symmetric 3x3 tensor.
//
// The mesh must bound a solid: closed, consistently oriented, outward
// (RequireSolid; non-manifold vertices are fine), else the error says
// which edge is open or flipped or that the volume is not positive; and
// the resulting principal moments must be those of a solid (positive, and
// each at most the sum of the other two), which a self-intersecting
// surface or a part oriented inwards can break. The density must be
// positive and finite.
func MassProperties(m *Mesh, density float64) (MassProps, error) {
	if !(density > 0) || math.IsInf(density, 0) {
		return MassProps{}, fmt.Errorf("mesh: mass properties: density %v is not positive and finite", density)
	}
	if m == nil || m.NumFaces() == 0 {
		return MassProps{}, fmt.Errorf("mesh: mass properties: empty mesh")
	}
	if err := m.RequireSolid(); err != nil {
		return MassProps{}, fmt.Errorf("mesh: mass properties need a closed, consistently oriented mesh: %w", err)
	}
	o := m.bounds.Center()
	var vol float64
	var first geom.Vec3 // integral of (x - o) dV
	// Upper triangle of the integral of (x - o)(x - o)^T dV: xx yy zz xy
	// xz yz.
	var cxx, cyy, czz, cxy, cxz, cyz float64
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		a := m.Verts[l[0]].Sub(o)
		// Fan from the first corner: the signed tetrahedra of a planar
		// polygon sum to its cone whatever its convexity.
		for k := 1; k+1 < len(l); k++ {
			b := m.Verts[l[k]].Sub(o)
			c := m.Verts[l[k+1]].Sub(o)
			v := a.Dot(b.Cross(c)) / 6
			vol += v
			s := a.Add(b).Add(c)
			first = first.AddScaled(v/4, s)
			// Second moment of the tetrahedron (0, a, b, c):
			// v/20 (a a^T + b b^T + c c^T + s s^T).
			w := v / 20
			cxx += w * (a.X*a.X + b.X*b.X + c.X*c.X + s.X*s.X)
			cyy += w * (a.Y*a.Y + b.Y*b.Y + c.Y*c.Y + s.Y*s.Y)
			czz += w * (a.Z*a.Z + b.Z*b.Z + c.Z*c.Z + s.Z*s.Z)
			cxy += w * (a.X*a.Y + b.X*b.Y + c.X*c.Y + s.X*s.Y)
			cxz += w * (a.X*a.Z + b.X*b.Z + c.X*c.Z + s.X*s.Z)
			cyz += w * (a.Y*a.Z + b.Y*b.Z + c.Y*c.Z + s.Y*s.Z)
		}
	}
	if !(vol > 0) || math.IsInf(vol, 0) {
		return MassProps{}, fmt.Errorf("mesh: mass properties: volume %g is not positive and finite", vol)
	}
	cm := first.Scale(1 / vol) // centre relative to o
	var mp MassProps
	mp.Volume = vol
	mp.Mass = density * vol
	mp.Center = o.Add(cm)
	// Covariance about the centre of mass, then the inertia tensor.
	cov := geom.Mat3{{cxx, cxy, cxz}, {cxy, cyy, cyz}, {cxz, cyz, czz}}
	var c geom.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[i][j] = density * (cov[i][j] - vol*cm.Get(i)*cm.Get(j))
		}
	}
	tr := c[0][0] + c[1][1] + c[2][2]
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			mp.Inertia[i][j] = 0 - c[i][j] // +0, not -0, where c is 0
		}
		mp.Inertia[i][i] += tr
	}
	mp.Principal, mp.Axes = SymEigen(mp.Inertia)
	// A solid's principal moments are positive and obey the triangle
	// inequality (I1 + I2 >= I3, equality only for a flat body). A closed
	// oriented surface that intersects itself, or has an inward part that
	// is not a cavity of an outward one, can break that.
	if p := mp.Principal; !(p.X > 0) || p.X+p.Y < p.Z*(1-1e-9) {
		return MassProps{}, fmt.Errorf("mesh: mass properties: principal moments %.6g, %.6g, %.6g are not those of a solid: the surface intersects itself or a closed part is oriented inwards (meshio's Soup.Orient turns each closed part outward)", p.X, p.Y, p.Z)
	}
	return mp, nil
}

// SymEigen returns the eigenvalues of the symmetric matrix a in ascending
// order and the matching unit eigenvectors as the columns of a rotation
// matrix (determinant +1), by the cyclic Jacobi method (Golub and Van Loan,
// "Matrix Computations", Sec. 8.5): plane rotations zero the off-diagonal
// entries in turn until they are negligible against the diagonal. Only the
// upper triangle of a is read.
func SymEigen(a geom.Mat3) (geom.Vec3, geom.Mat3) {
	for i := 0; i < 3; i++ {
		for j := 0; j < i; j++ {
			a[i][j] = a[j][i]
		}
	}
	v := geom.Identity()
	for sweep := 0; sweep < 50; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		diag := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off == 0 || off <= 1e-36*diag {
			break
		}
		for _, pq := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			p, q := pq[0], pq[1]
			if a[p][q] == 0 {
				continue
			}
			// Rotation angle that zeroes a[p][q] (the smaller root of
			// t^2 + 2 theta t - 1 = 0, for stability).
			theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
			t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
			if theta < 0 {
				t = -t
			}
			cs := 1 / math.Sqrt(t*t+1)
			sn := t * cs
			for k := 0; k < 3; k++ { // a = a J (columns p, q)
				akp, akq := a[k][p], a[k][q]
				a[k][p] = cs*akp - sn*akq
				a[k][q] = sn*akp + cs*akq
			}
			for k := 0; k < 3; k++ { // a = J^T a (rows p, q)
				apk, aqk := a[p][k], a[q][k]
				a[p][k] = cs*apk - sn*aqk
				a[q][k] = sn*apk + cs*aqk
			}
			for k := 0; k < 3; k++ { // v = v J
				vkp, vkq := v[k][p], v[k][q]
				v[k][p] = cs*vkp - sn*vkq
				v[k][q] = sn*vkp + cs*vkq
			}
		}
	}
	// Sort ascending, permuting the columns of v with the values.
	ev := [3]float64{a[0][0], a[1][1], a[2][2]}
	idx := [3]int{0, 1, 2}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if ev[idx[j]] < ev[idx[i]] {
				idx[i], idx[j] = idx[j], idx[i]
			}
		}
	}
	var vals geom.Vec3
	var axes geom.Mat3
	for c, k := range idx {
		vals = vals.Set(c, ev[k])
		for r := 0; r < 3; r++ {
			axes[r][c] = v[r][k]
		}
	}
	if axes.Det() < 0 {
		for r := 0; r < 3; r++ {
			axes[r][2] = -axes[r][2]
		}
	}
	return vals, axes
}
