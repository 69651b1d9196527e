package toc

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// EnlargedOBB is the broad-phase volume of Sec. 3.5: the body's oriented
// bounding box (local, e.g. OBBFromAABB of its bounds) at the start of the
// step, grown so that it contains a sphere around each of its corners whose
// radius is the distance the corner can travel during the step. The paper
// takes |v_i| dt with v_i the corner's velocity at the start; the radius
// here is (|V| + |W| |r_i|) dt (r_i from the reference point State.Ref to the corner),
// which bounds the path of every point of the box, not only its corners, so
// the enlarged box contains the body during the whole step.
func EnlargedOBB(local geom.OBB, s State, dt float64) geom.OBB {
	w := local.Transform(s.Pose.Transform())
	r := 0.0
	for i := 0; i < 8; i++ {
		c := local.Center
		for k := 0; k < 3; k++ {
			sg := -1.0
			if i&(1<<k) != 0 {
				sg = 1
			}
			c = c.AddScaled(sg*local.Half.Get(k), local.Axes.Col(k))
		}
		r = math.Max(r, c.Sub(s.Ref).Norm())
	}
	return w.Expand((s.V.Norm() + s.W.Norm()*r) * dt)
}

// SweptOBB is a tighter broad-phase volume than EnlargedOBB for fast
// bodies: the trajectory box (TrajectoryOBB) of the centre of the shape's
// bounding sphere during the step, in world coordinates, grown by the
// sphere's radius. It is long and thin for a fast body (a bullet) where
// EnlargedOBB is a cube of the distance travelled.
func SweptOBB(sh *Shape, s State, dt float64) geom.OBB {
	rel := NewRelative(s, State{Pose: geom.PoseIdentity()})
	f0, f1 := rel.Frame(0), rel.Frame(dt)
	c := sh.center
	L := SpeedBound(f0.Vel(c).Norm(), f1.Vel(c).Norm(), rel.Lipschitz(c), dt)
	o := TrajectoryOBB(f0.Pos(c), f1.Pos(c), L*dt, 0)
	return o.Expand(sh.radius + 1e-12*(o.Center.Norm()+L*dt+sh.radius))
}
