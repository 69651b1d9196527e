package world

import (
	"math"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestPoseErrorsSayThePackageOnce: a bad pose given to Add, Move or
// SetPose is an error that says "world:" once and names the body.
func TestPoseErrorsSayThePackageOnce(t *testing.T) {
	w := mustNew(t, nil)
	id, err := w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: Convex, Pose: geom.PoseIdentity()})
	if err != nil {
		t.Fatal(err)
	}
	bad := []geom.Pose{
		{P: geom.Vec3{X: math.NaN()}, Q: geom.QuatIdentity()},
		{P: geom.Vec3{X: 2 * geom.MaxCoord}, Q: geom.QuatIdentity()},
		{},
	}
	for _, p := range bad {
		_, errAdd := w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: Convex, Pose: p})
		errMove := w.Move(id, p)
		errSet := w.SetPose(id, p)
		for i, err := range []error{errAdd, errMove, errSet} {
			if err == nil {
				t.Errorf("pose %v: call %d accepted it", p, i)
				continue
			}
			msg := err.Error()
			if strings.Count(msg, "world:") != 1 || !strings.HasPrefix(msg, "world: ") || !strings.Contains(msg, "pose") {
				t.Errorf("pose %v: call %d: %q, want one package prefix", p, i, msg)
			}
			if i > 0 && !strings.Contains(msg, "body 0:") {
				t.Errorf("pose %v: call %d: %q does not name the body", p, i, msg)
			}
		}
	}
}
