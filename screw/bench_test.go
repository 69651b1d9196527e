package screw

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

func benchSamples(b *testing.B, set int, ppe float64) {
	qs := loadSamples(b, sampleSets[set].dir)
	m := sampleSets[set].mesh()
	d := NewDetector()
	opt := &Options{PixelsPerEdge: ppe}
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		q := &qs[i%len(qs)]
		d.FirstContact(m, m, q.a0, q.a1, q.b0, q.b1, opt)
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// Benchmarks of FirstContact over the sample motion workloads (one op = one
// query), at Buss's low, medium and high resolutions.
func BenchmarkFirstCubePx6(b *testing.B)   { benchSamples(b, 0, 6) }
func BenchmarkFirstCubePx12(b *testing.B)  { benchSamples(b, 0, 12) }
func BenchmarkFirstCubePx24(b *testing.B)  { benchSamples(b, 0, 24) }
func BenchmarkFirstCarPx6(b *testing.B)    { benchSamples(b, 1, 6) }
func BenchmarkFirstCarPx12(b *testing.B)   { benchSamples(b, 1, 12) }
func BenchmarkFirstCarPx24(b *testing.B)   { benchSamples(b, 1, 24) }
func BenchmarkFirstTorusPx6(b *testing.B)  { benchSamples(b, 2, 6) }
func BenchmarkFirstTorusPx12(b *testing.B) { benchSamples(b, 2, 12) }
func BenchmarkFirstTorusPx24(b *testing.B) { benchSamples(b, 2, 24) }

// typical returns a typical Buss-style query for a shape (Sec. 9.1): B
// flies into A along a screw motion turning about 25 degrees; for tori the
// demo's pass-through of Fig. 13.
func typical(shape string) (a, b *mesh.Mesh, p [4]geom.Pose) {
	id := geom.PoseIdentity()
	rot := geom.QuatAxisAngle(geom.Vec3{X: 0.3, Y: 1, Z: 0.2}, 0.45)
	switch shape {
	case "cube":
		m := shapes.Cube(1)
		return m, m, [4]geom.Pose{id, id, {P: geom.Vec3{X: 2.2, Y: 0.2}, Q: geom.QuatIdentity()}, {P: geom.Vec3{X: 0.4, Y: -0.1, Z: 0.1}, Q: rot}}
	case "car":
		m := shapes.Car()
		return m, m, [4]geom.Pose{id, id, {P: geom.Vec3{X: 0.3, Y: 1.6}, Q: geom.QuatIdentity()}, {P: geom.Vec3{X: 0.1, Y: 0.3, Z: 0.05}, Q: rot}}
	}
	return torusQuery(20, 15)
}

func torusQuery(m, n int) (a, b *mesh.Mesh, p [4]geom.Pose) {
	t := shapes.Torus(1, 0.35, m, n)
	up := geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)
	return t, t, [4]geom.Pose{
		{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: up},
		{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(up)},
		geom.PoseIdentity(), geom.PoseIdentity(),
	}
}

func benchDetect(b *testing.B, shape string, ppe float64) {
	ma, mb, p := typical(shape)
	benchDetectQ(b, ma, mb, p, ppe)
}

func benchDetectQ(b *testing.B, ma, mb *mesh.Mesh, p [4]geom.Pose, ppe float64) {
	benchQuery(b, ma, mb, p, ppe, false)
}

// benchQuery times Detect, or FirstContact with first, on one query.
func benchQuery(b *testing.B, ma, mb *mesh.Mesh, p [4]geom.Pose, ppe float64, first bool) {
	d := NewDetector()
	opt := &Options{PixelsPerEdge: ppe}
	buf, _ := d.Detect(ma, mb, p[0], p[1], p[2], p[3], opt, nil)
	b.ReportMetric(float64(len(buf)), "collisions")
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if first {
			d.FirstContact(ma, mb, p[0], p[1], p[2], p[3], opt)
		} else {
			buf, _ = d.Detect(ma, mb, p[0], p[1], p[2], p[3], opt, buf[:0])
		}
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// The nine figures of Buss's Sec. 9.1 table: Detect (every collision of
// the step) on a typical colliding motion at low, medium and high
// resolution (a typical short edge covers about 6, 12 and 24 pixels).
func BenchmarkDetectCubePx6(b *testing.B)   { benchDetect(b, "cube", 6) }
func BenchmarkDetectCubePx12(b *testing.B)  { benchDetect(b, "cube", 12) }
func BenchmarkDetectCubePx24(b *testing.B)  { benchDetect(b, "cube", 24) }
func BenchmarkDetectCarPx6(b *testing.B)    { benchDetect(b, "car", 6) }
func BenchmarkDetectCarPx12(b *testing.B)   { benchDetect(b, "car", 12) }
func BenchmarkDetectCarPx24(b *testing.B)   { benchDetect(b, "car", 24) }
func BenchmarkDetectTorusPx6(b *testing.B)  { benchDetect(b, "torus", 6) }
func BenchmarkDetectTorusPx12(b *testing.B) { benchDetect(b, "torus", 12) }
func BenchmarkDetectTorusPx24(b *testing.B) { benchDetect(b, "torus", 24) }

// Scaling with the number of faces: tori of 300, 3 000 and 30 000 faces
// on the same motion, medium resolution.
func BenchmarkScalingTorus300(b *testing.B) {
	ma, mb, p := torusQuery(20, 15)
	benchDetectQ(b, ma, mb, p, 12)
}
func BenchmarkScalingTorus3000(b *testing.B) {
	ma, mb, p := torusQuery(60, 50)
	benchDetectQ(b, ma, mb, p, 12)
}
func BenchmarkScalingTorus30000(b *testing.B) {
	ma, mb, p := torusQuery(200, 150)
	benchDetectQ(b, ma, mb, p, 12)
}

// FirstContact on the same tori: its work follows the region of the first
// contact (the trees' culling), not the number of faces.
func BenchmarkFirstScalingTorus300(b *testing.B) {
	ma, mb, p := torusQuery(20, 15)
	benchQuery(b, ma, mb, p, 12, true)
}
func BenchmarkFirstScalingTorus30000(b *testing.B) {
	ma, mb, p := torusQuery(200, 150)
	benchQuery(b, ma, mb, p, 12, true)
}

// coilQuery is the screw-thread case of Sec. 9.1: two coils of 6 turns
// (1 154 faces each) wound into each other half a pitch apart (B turned by
// 0.1 rad about the axis, so that its vertices do not meet A's, and moved
// along it by the pitch times 0.1 / 2 pi to stay half a pitch away); B is pushed
// along the axis by 0.15 (the gap is 0.05) while turning by rot about it.
// Along the axis every turn of both coils covers the same ring of the
// screen, so only time tells the turns apart.
func coilQuery(rot float64) (a, b *mesh.Mesh, p [4]geom.Pose) {
	m := shapes.Coil(1, 0.1, 0.5, 6, 16, 6)
	id := geom.PoseIdentity()
	return m, m, [4]geom.Pose{id, id,
		{P: geom.Vec3{Z: 0.25 + 0.05/math.Pi}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.1)},
		{P: geom.Vec3{Z: 0.4 + 0.05/math.Pi}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.1+rot)}}
}

// Coils pushed into each other: along the axis only (a translation: the
// screen is the orthogonal projection), and turning by 0.3 rad.
func BenchmarkDetectCoilPush(b *testing.B) {
	ma, mb, p := coilQuery(0)
	benchDetectQ(b, ma, mb, p, 12)
}
func BenchmarkDetectCoilTwist(b *testing.B) {
	ma, mb, p := coilQuery(0.3)
	benchDetectQ(b, ma, mb, p, 12)
}
