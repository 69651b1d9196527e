package ccd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestImpulse checks the response against its defining properties:
// afterwards the relative normal velocity is -e times what it was, and
// momentum is conserved.
func TestImpulse(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 7))
	for i := 0; i < cases(2000); i++ {
		n, ok := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Normalize()
		if !ok {
			continue
		}
		var w [4]float64
		if i%2 == 0 {
			w = EdgeEdgeWeights(r.Float64(), r.Float64())
		} else {
			u := r.Float64()
			w = VertexFaceWeights(u, r.Float64()*(1-u))
		}
		var vel [4]geom.Vec3
		var inv, mass [4]float64
		for j := range vel {
			vel[j] = geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
			mass[j] = 0.1 + 10*r.Float64()
			inv[j] = 1 / mass[j]
		}
		e := r.Float64()
		vrn := 0.0
		for j := range w {
			vrn += w[j] * n.Dot(vel[j])
		}
		dv, jmag, ok := Impulse(n, w, vel, inv, e)
		if vrn >= 0 {
			if ok {
				t.Fatalf("separating contact (vrn=%v) got an impulse", vrn)
			}
			continue
		}
		if !ok || jmag <= 0 {
			t.Fatalf("approaching contact: ok=%v j=%v", ok, jmag)
		}
		after := 0.0
		var p0, p1 geom.Vec3
		for j := range w {
			after += w[j] * n.Dot(vel[j].Add(dv[j]))
			p0 = p0.AddScaled(mass[j], vel[j])
			p1 = p1.AddScaled(mass[j], vel[j].Add(dv[j]))
		}
		if math.Abs(after+e*vrn) > 1e-9*(1+math.Abs(vrn)) {
			t.Fatalf("after %v, want %v", after, -e*vrn)
		}
		if p0.Sub(p1).Norm() > 1e-9*(1+p0.Norm()) {
			t.Fatalf("momentum %v -> %v", p0, p1)
		}
	}
	// Immovable particles and bad input.
	if _, _, ok := Impulse(geom.V(0, 0, 1), EdgeEdgeWeights(0.5, 0.5), [4]geom.Vec3{{Z: -1}, {Z: -1}}, [4]float64{}, 1); ok {
		t.Error("infinite masses gave an impulse")
	}
	if _, _, ok := Impulse(geom.V(0, 0, 1), EdgeEdgeWeights(0.5, 0.5), [4]geom.Vec3{{Z: math.NaN()}}, [4]float64{1, 1, 1, 1}, 1); ok {
		t.Error("NaN velocity gave an impulse")
	}
}
