package shapes

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Tessellation of WarpedPlane: WarpedPlaneSides segments along each side of
// the square outline (WarpedPlaneAround = 4*WarpedPlaneSides vertices around
// the hole) and WarpedPlaneRings quadrilateral rings from the hole to the
// outline, each quadrilateral split into two triangles: 2 * 84 * 12 = 2016
// triangles, the "2010 triangle polygon soup" of the contact paper (Sec. 4,
// Fig. 3) to within 0.3%.
const (
	WarpedPlaneSides     = 21
	WarpedPlaneAround    = 4 * WarpedPlaneSides
	WarpedPlaneRings     = 12
	WarpedPlaneTriangles = 2 * WarpedPlaneAround * WarpedPlaneRings   // 2016
	WarpedPlaneVerts     = WarpedPlaneAround * (WarpedPlaneRings + 1) // 1092
)

// Default warped-plane dimensions in metres, for the 100-bullet scene of the
// contact paper (Sec. 4): WarpedPlane(DefaultPlaneSize, DefaultPlaneHole,
// DefaultPlaneWarp).
const (
	DefaultPlaneSize = 2.0
	DefaultPlaneHole = 0.3
	DefaultPlaneWarp = 0.1
)

// WarpedPlane returns the thin target of the contact paper's example (Sec.
// 4, Fig. 3): an open triangulated sheet, square of side size in outline,
// with a round hole of radius hole in its centre, warped out of its plane by
// up to amp. It has WarpedPlaneTriangles (2016) triangles and
// WarpedPlaneVerts vertices; it is an open manifold annulus (two boundary
// loops, Euler characteristic 0), the kind of surface the paper treats as a
// polygon soup.
//
// The sheet spans y and z in [-size/2, size/2] and is warped along x:
// a vertex at (y, z) is at x = amp * sin(pi*y/size) * sin(pi*z/size), a
// saddle that is 0 along the centre lines and +-amp at the corners. Bullets
// (see Bullet, nose along +x) flying along +x hit it head on; gravity along
// -z then runs along the sheet. Faces are counter-clockwise seen from -x
// (their normals face the incoming bullets).
//
// Vertex rows run from the hole circle (WarpedPlaneAround evenly spaced
// angles) straight out to the square outline, which is sampled evenly
// along each side so that its corners are vertices. No triangle comes
// closer to the centre (in y, z) than hole*cos(pi/WarpedPlaneAround).
//
// WarpedPlane panics unless size is positive and finite, 1e-6*size <= hole
// < size/2 and |amp| <= 100*size (a programming error: check user input
// with CheckWarpedPlane first).
func WarpedPlane(size, hole, amp float64) *mesh.Mesh {
	if err := CheckWarpedPlane(size, hole, amp); err != nil {
		panic("shapes.WarpedPlane: " + err.Error())
	}
	const s, k, nr = WarpedPlaneSides, WarpedPlaneAround, WarpedPlaneRings
	h := size / 2
	// Outline point i (0..k-1) runs counter-clockwise in the (y, z) plane
	// along the square, evenly along each side, starting at the corner
	// (h, -h); hole point i is at the angle -pi/4 + 2*pi*i/k, so the two
	// start on the same ray and stay within a few degrees of each other.
	outline := func(i int) (y, z float64) {
		side, t := i/s, float64(i%s)/float64(s) // side 0: +y, 1: +z, 2: -y, 3: -z
		u := -h + 2*h*t
		switch side {
		case 0:
			return h, u
		case 1:
			return -u, h
		case 2:
			return -h, -u
		}
		return u, -h
	}
	vs := make([]geom.Vec3, 0, WarpedPlaneVerts)
	for j := 0; j <= nr; j++ {
		f := float64(j) / float64(nr)
		for i := 0; i < k; i++ {
			oy, oz := outline(i)
			th := -math.Pi/4 + 2*math.Pi*float64(i)/float64(k)
			iy, iz := hole*math.Cos(th), hole*math.Sin(th)
			y, z := iy+f*(oy-iy), iz+f*(oz-iz)
			vs = append(vs, geom.Vec3{X: amp * math.Sin(math.Pi*y/size) * math.Sin(math.Pi*z/size), Y: y, Z: z})
		}
	}
	id := func(j, i int) int { return j*k + i%k }
	faces := make([][]int, 0, WarpedPlaneTriangles)
	for j := 0; j < nr; j++ {
		for i := 0; i < k; i++ {
			// In the (y, z) plane a = (j, i), b = (j+1, i), c = (j+1, i+1),
			// d = (j, i+1) runs counter-clockwise, i.e. its normal is +x;
			// reverse it so that the front faces -x.
			a, b, c, d := id(j, i), id(j+1, i), id(j+1, i+1), id(j, i+1)
			faces = append(faces, []int{a, c, b}, []int{a, d, c})
		}
	}
	return mustNew(vs, faces)
}

// CheckWarpedPlane returns an error naming the bad parameter when
// WarpedPlane(size, hole, amp) would panic.
func CheckWarpedPlane(size, hole, amp float64) error {
	if !(size > 0) || math.IsInf(size, 0) {
		return fmt.Errorf("plane size %v must be positive and finite", size)
	}
	if !(hole >= 1e-6*size) || !(hole < size/2) {
		return fmt.Errorf("hole radius %v must be at least 1e-6*size (%v) and below size/2 (%v)", hole, 1e-6*size, size/2)
	}
	if !(math.Abs(amp) <= 100*size) {
		return fmt.Errorf("warp amplitude %v must be finite and at most 100*size (%v) in magnitude", amp, 100*size)
	}
	return nil
}
