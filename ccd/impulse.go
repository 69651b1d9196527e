package ccd

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// EdgeEdgeWeights returns the particle weights of an edge-edge contact for
// Impulse: edge A = (particles 0, 1) at parameter f1, edge B = (2, 3) at f2,
// with the normal pointing from edge A toward edge B (Result.Normal of an
// edge-edge hit; Jansen's eq. 28 with A, B, C, D = particles 0..3).
func EdgeEdgeWeights(f1, f2 float64) [4]float64 {
	return [4]float64{-(1 - f1), -f1, 1 - f2, f2}
}

// VertexFaceWeights returns the particle weights of a vertex-face contact
// for Impulse: the vertex is particle 0, the triangle's vertices 1, 2, 3
// with barycentric weights (1-u-v, u, v), the normal pointing from the
// vertex toward the triangle (Result.Normal of a vertex-face hit).
func VertexFaceWeights(u, v float64) [4]float64 {
	return [4]float64{-1, 1 - u - v, u, v}
}

// Impulse is the collision response of Jansen, Sec. 3.5. The contact's
// relative normal velocity is v_rn = n . sum_i w[i] vel[i] (eq. 28 for the
// weights of EdgeEdgeWeights); the impulse magnitude is
//
//	j = -(1 + e) v_rn / sum_i w[i]^2 invMass[i]                 (eq. 29)
//
// and particle i's velocity changes by j w[i] invMass[i] n, so that the
// relative normal velocity afterwards is -e v_rn and momentum is conserved
// (the weights of each side sum to one). Eq. 29 as printed has the factor
// (1 - eps); the standard form (1 + e) used here makes e = 0 a plastic and
// e = 1 an elastic collision. n must be a unit vector; invMass[i] = 0 is
// an immovable particle.
//
// ok is false, and dv zero, when the particles are not approaching
// (v_rn >= 0), when all masses are infinite, or when an input is not
// finite.
func Impulse(n geom.Vec3, w [4]float64, vel [4]geom.Vec3, invMass [4]float64, restitution float64) (dv [4]geom.Vec3, j float64, ok bool) {
	rel, den := WeightedVelocity(w, vel, invMass)
	vrn := n.Dot(rel)
	if !(vrn < 0) || !(den > 0) || math.IsInf(den, 0) || math.IsInf(vrn, 0) {
		return dv, 0, false
	}
	j = -(1 + restitution) * vrn / den
	if math.IsNaN(j) || math.IsInf(j, 0) {
		return dv, 0, false
	}
	return ImpulseChanges(n, j, w, invMass), j, true
}

// WeightedVelocity returns the relative velocity of a contact's particles
// with weights w (EdgeEdgeWeights, VertexFaceWeights), v = sum_i w[i]
// vel[i] (eq. 28 before its product with the normal), and the
// denominator of their impulse, den = sum_i w[i]^2 invMass[i] (eq. 29).
func WeightedVelocity(w [4]float64, vel [4]geom.Vec3, invMass [4]float64) (v geom.Vec3, den float64) {
	for i := range w {
		v = v.AddScaled(w[i], vel[i])
		den += w[i] * w[i] * invMass[i]
	}
	return v, den
}

// ImpulseChanges returns the particles' velocity changes j w[i] invMass[i]
// n of an impulse of magnitude j along the unit normal n.
func ImpulseChanges(n geom.Vec3, j float64, w [4]float64, invMass [4]float64) (dv [4]geom.Vec3) {
	for i := range w {
		dv[i] = n.Scale(j * w[i] * invMass[i])
	}
	return dv
}
