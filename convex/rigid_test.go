package convex

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// rigidOracle decides what rigid decides with exact arithmetic (math/big):
// every entry and the translation finite, each row's squared length within
// 1e-6 of 1, each pair of rows' product within 1e-6 of 0, the determinant
// positive; dev is the largest deviation, rounded (rigid's dev bounds it
// from above, within six times).
func rigidOracle(t *geom.Transform) (bool, float64) {
	for i := range 3 {
		for j := range 3 {
			if math.IsNaN(t.R[i][j]) || math.IsInf(t.R[i][j], 0) {
				return false, 0
			}
		}
	}
	if !t.T.IsFinite() {
		return false, 0
	}
	x := func(i, j int) *big.Float { return new(big.Float).SetPrec(600).SetFloat64(t.R[i][j]) }
	dot := func(i, k int) *big.Float {
		s := new(big.Float).SetPrec(600)
		for j := range 3 {
			s.Add(s, new(big.Float).SetPrec(600).Mul(x(i, j), x(k, j)))
		}
		return s
	}
	one := big.NewFloat(1)
	dev := 0.0
	for i := range 3 {
		for k := i; k < 3; k++ {
			d := dot(i, k)
			if i == k {
				d.Sub(d, one)
			}
			v, _ := d.Abs(d).Float64()
			dev = max(dev, v)
		}
	}
	det := new(big.Float).SetPrec(600)
	for _, p := range [][4]int{{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {1, 0, 2, -1}, {2, 1, 0, -1}} {
		m := new(big.Float).SetPrec(600).Mul(x(0, p[0]), x(1, p[1]))
		m.Mul(m, x(2, p[2]))
		if p[3] < 0 {
			m.Neg(m)
		}
		det.Add(det, m)
	}
	return dev <= 1e-6 && det.Sign() > 0, dev
}

// TestRigid checks the transform check of every query against the exact
// oracle: rotations from quaternions, rows perturbed below and above the
// 1e-6 limit, reflections, and a NaN, an infinity or an overflowing value
// in every entry of R and of the translation.
func TestRigid(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	var cases []geom.Transform
	for range 400 {
		q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		tr := geom.Pose{P: geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: 1e3 * rng.NormFloat64()}, Q: q}.Transform()
		cases = append(cases, tr)
		for _, eps := range []float64{1e-9, 3e-7, 2e-6, 1e-3} {
			p := tr
			p.R[rng.IntN(3)][rng.IntN(3)] += eps * (2*rng.Float64() - 1)
			cases = append(cases, p)
		}
		m := tr
		m.R[0], m.R[1] = m.R[1], m.R[0] // a reflection
		cases = append(cases, m)
	}
	base := cases[0]
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e200, -1e-200} {
		for i := range 12 {
			p := base
			if i < 9 {
				p.R[i/3][i%3] = bad
			} else {
				*[]*float64{&p.T.X, &p.T.Y, &p.T.Z}[i-9] = bad
			}
			cases = append(cases, p)
		}
	}
	nok := 0
	for k := range cases {
		c := &cases[k]
		ok, dev := rigid(c)
		wok, wdev := rigidOracle(c)
		if ok != wok {
			t.Fatalf("case %d (%v): rigid %v, oracle %v (dev %g)", k, *c, ok, wok, wdev)
		}
		if ok {
			nok++
			if dev < wdev-1e-15 || dev > 6*wdev+1e-15 { // rounding: a few units of 1
				t.Fatalf("case %d: dev %g does not bound the oracle's %g within 6 times (to rounding)", k, dev, wdev)
			}
		}
	}
	if nok < len(cases)/3 || nok > 2*len(cases)/3 {
		t.Fatalf("%d of %d cases rigid: want a third to two thirds", nok, len(cases))
	}
}
