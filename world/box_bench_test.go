package world

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// BenchmarkPoseBox measures the broad-phase box of one non-convex body
// turning 3 degrees a step: from its hull's box points (hill climbing and
// the vertices near hull faces) against transforming every vertex.
func BenchmarkPoseBox(b *testing.B) {
	meshes := map[string]*mesh.Mesh{
		"torus300": shapes.Torus(1, 0.3, 30, 10),
		"coil":     shapes.Coil(1, 0.2, 0.8, 3, 60, 8),
		"duck":     testutil.ReadMesh(b, "../testdata/meshes/bullet/duck.obj"),
	}
	for _, name := range []string{"torus300", "coil", "duck"} {
		m := meshes[name]
		w, _ := New(nil)
		id, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: geom.PoseIdentity()})
		if err != nil {
			b.Fatal(err)
		}
		body := &w.bodies[id]
		ax, _ := geom.Vec3{X: 1, Y: 2, Z: 3}.Normalize()
		turn := geom.QuatAxisAngle(ax, 3*math.Pi/180)
		run := func(b *testing.B, box func(geom.Pose) geom.AABB) {
			p := geom.PoseIdentity()
			var sink float64
			for b.Loop() {
				p.Q, _ = turn.Mul(p.Q).Normalize()
				bb := box(p)
				sink += bb.Max.X - bb.Min.X
			}
			if !(sink > 0) {
				b.Fatal("empty boxes")
			}
		}
		b.Run(name+"/hull", func(b *testing.B) {
			run(b, func(p geom.Pose) geom.AABB { t := p.Transform(); return poseBox(body, &t) })
		})
		b.Run(name+"/vertices", func(b *testing.B) { run(b, func(p geom.Pose) geom.AABB { return tightBox(body.sh, p) }) })
	}
}
