package toc

import (
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// benchBullet is one step of the paper's scene for one bullet: 0.1 s at
// 1000 m/s, crossing the warped plane during the step.
func benchBullet(b *testing.B, alg Method, hitPlane, pointsOnly bool) {
	bullet := mustShape(b, shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength))
	plane := mustShape(b, shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp))
	y, z := 0.6, 0.4
	if !hitPlane {
		y = 0.1 // through the hole
		z = 0.05
	}
	sa := State{Pose: geom.Pose{P: geom.V(-37.3, y, z), Q: geom.QuatIdentity()}, V: geom.V(1000, 0, 0.5), W: geom.V(2e-3, 0, 0)}
	sb := State{Pose: geom.PoseIdentity()}
	var q Scratch
	opt := &Options{Method: alg, Tolerance: 1e-5, PointsOnly: pointsOnly}
	dst, err := q.Contacts(bullet, sa, plane, sb, 0.1, opt, nil)
	if err != nil || (len(dst) == 1) != hitPlane {
		b.Fatalf("contacts %v err %v", dst, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, _ = q.Contacts(bullet, sa, plane, sb, 0.1, opt, dst[:0])
	}
}

func BenchmarkBulletStepBoxes(b *testing.B)           { benchBullet(b, Boxes, true, false) }
func BenchmarkBulletStepBoxesPointsOnly(b *testing.B) { benchBullet(b, Boxes, true, true) }
func BenchmarkBulletStepSegments(b *testing.B)        { benchBullet(b, Segments, true, false) }
func BenchmarkBulletHoleStepBoxes(b *testing.B)       { benchBullet(b, Boxes, false, false) }
func BenchmarkBulletHoleStepSegment(b *testing.B)     { benchBullet(b, Segments, false, false) }

// benchTumble: a spinning torus hits a spinning car (curved trajectories,
// non-convex shapes, both moving).
func benchTumble(b *testing.B, alg Method, pointsOnly bool) {
	a := mustShape(b, shapes.Torus(0.8, 0.3, 20, 15))
	c := mustShape(b, shapes.Car())
	sa := State{Pose: geom.Pose{P: geom.V(0.3, 0.1, 2.5), Q: geom.QuatIdentity()}, V: geom.V(0, 0, -3), W: geom.V(3, 1, 2)}
	sb := State{Pose: geom.PoseIdentity(), W: geom.V(0, 0, 2)}
	var q Scratch
	opt := &Options{Method: alg, PointsOnly: pointsOnly}
	dst, err := q.Contacts(a, sa, c, sb, 1, opt, nil)
	if err != nil || len(dst) != 1 {
		b.Fatalf("contacts %v err %v", dst, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst, _ = q.Contacts(a, sa, c, sb, 1, opt, dst[:0])
	}
}

func BenchmarkTumbleBoxes(b *testing.B)           { benchTumble(b, Boxes, false) }
func BenchmarkTumbleBoxesPointsOnly(b *testing.B) { benchTumble(b, Boxes, true) }
func BenchmarkTumbleSegments(b *testing.B)        { benchTumble(b, Segments, false) }

func BenchmarkSoupBuild(b *testing.B) {
	m := shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := SoupOf(m); err != nil {
			b.Fatal(err)
		}
	}
}
