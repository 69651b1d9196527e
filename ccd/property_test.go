package ccd

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

var (
	seed = flag.Uint64("seed", 1, "seed of the random property tests")
	long = flag.Bool("long", false, "run the property tests with many more cases")
)

// queryKinds are the kinds of query ccd answers; random cases alternate
// between them.
var queryKinds = [2]contact.PairKind{contact.VertexFace, contact.EdgeEdge}

func cases(n int) int {
	if *long {
		return 50 * n
	}
	return n
}

// --- the exact oracle: rational arithmetic on the float inputs ---

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// exactF returns F(t, u, v) exactly: for vertex-face P - [(1-u-v)A + uB + vC],
// for edge-edge (1-u)A0 + uA1 - (1-v)B0 - vB1, every point at time t.
func exactF(q *Query, t, u, v *big.Rat) [3]*big.Rat {
	one := big.NewRat(1, 1)
	omt := new(big.Rat).Sub(one, t)
	pos := func(i, k int) *big.Rat {
		a := rat(q.Start[i].Get(k))
		b := rat(q.End[i].Get(k))
		a.Mul(a, omt)
		b.Mul(b, t)
		return a.Add(a, b)
	}
	var w [4]*big.Rat
	if q.Kind == contact.VertexFace {
		wa := new(big.Rat).Sub(one, u)
		wa.Sub(wa, v)
		w = [4]*big.Rat{one, new(big.Rat).Neg(wa), new(big.Rat).Neg(u), new(big.Rat).Neg(v)}
	} else {
		w = [4]*big.Rat{new(big.Rat).Sub(one, u), u, new(big.Rat).Sub(v, one), new(big.Rat).Neg(v)}
	}
	var f [3]*big.Rat
	for k := 0; k < 3; k++ {
		f[k] = new(big.Rat)
		for i := 0; i < 4; i++ {
			f[k].Add(f[k], new(big.Rat).Mul(w[i], pos(i, k)))
		}
	}
	return f
}

// exactContact reports whether F(t, u, v) = 0 exactly.
func exactContact(q *Query, t, u, v float64) bool {
	f := exactF(q, rat(t), rat(u), rat(v))
	return f[0].Sign() == 0 && f[1].Sign() == 0 && f[2].Sign() == 0
}

// --- constructed contacts ---

// dy returns a random dyadic number m/2^6 with |m| <= 2^8: few bits, so
// that all constructions below are exact in float64.
func dy(r *rand.Rand) float64 { return float64(r.IntN(513)-256) / 64 }

func dyv(r *rand.Rand) geom.Vec3 { return geom.V(dy(r), dy(r), dy(r)) }

var fracs = []float64{0, 0.25, 0.5, 0.75, 1}

// contactCase is a query with an exact contact at (T, U, V).
type contactCase struct {
	name    string
	q       Query
	T, U, V float64
}

// moving returns start and end positions of a point that is at x at time
// ts and moves by w over the step.
func moving(x, w geom.Vec3, ts float64) (geom.Vec3, geom.Vec3) {
	return x.Sub(w.Scale(ts)), x.Add(w.Scale(1 - ts))
}

// makeContact builds a random query with an exact contact; variant selects
// an adversarial family.
func makeContact(r *rand.Rand, kind contact.PairKind, variant int) contactCase {
	ts := fracs[r.IntN(len(fracs))]
	if r.IntN(3) == 0 {
		ts = float64(r.IntN(17)) / 16
	}
	var pos [4]geom.Vec3 // positions at ts
	var vel [4]geom.Vec3
	for i := range vel {
		vel[i] = dyv(r)
	}
	var u, v float64
	name := ""
	switch kind {
	case contact.VertexFace:
		u = fracs[r.IntN(len(fracs))]
		v = fracs[r.IntN(len(fracs))]
		if u+v > 1 {
			v = 1 - u
		}
		pos[1], pos[2], pos[3] = dyv(r), dyv(r), dyv(r)
		switch variant {
		case 1: // everything moves in the plane z = c
			name = "in-plane"
			c := dy(r)
			for i := range pos {
				pos[i].Z = c
				vel[i].Z = 0
			}
		case 2: // zero motion
			name = "static"
			vel = [4]geom.Vec3{}
		case 3: // degenerate (collinear) triangle
			name = "degenerate-face"
			pos[3] = pos[1].Lerp(pos[2], 0.5)
			vel[3] = vel[1].Lerp(vel[2], 0.5)
		default:
			name = "generic"
		}
		pos[0] = pos[1].Scale(1 - u - v).Add(pos[2].Scale(u)).Add(pos[3].Scale(v))
	default:
		u = fracs[r.IntN(len(fracs))]
		v = []float64{0, 0.25, 0.5, 1}[r.IntN(4)]
		pos[0], pos[1] = dyv(r), dyv(r)
		x := pos[0].Lerp(pos[1], u)
		lam := float64(r.IntN(9)-4) / 2
		if lam == 0 {
			lam = 0.5
		}
		switch variant {
		case 1: // parallel, overlapping edges
			name = "parallel"
			d := pos[1].Sub(pos[0]).Scale(lam)
			pos[2] = x.Sub(d.Scale(v))
			pos[3] = pos[2].Add(d)
			vel[3] = vel[2]
			vel[1] = vel[0]
		case 2: // zero motion
			name = "static"
			vel = [4]geom.Vec3{}
			fallthrough
		default:
			if name == "" {
				name = "generic"
			}
			if v == 0 {
				pos[2], pos[3] = x, dyv(r)
			} else {
				pos[2] = dyv(r)
				pos[3] = x.Sub(pos[2].Scale(1 - v)).Scale(1 / v)
			}
		case 3: // edges in a common moving plane z = c
			name = "coplanar"
			c := dy(r)
			pos[0].Z, pos[1].Z = c, c
			x = pos[0].Lerp(pos[1], u)
			pos[2] = dyv(r)
			pos[2].Z = c
			if v == 0 {
				pos[2] = x
				pos[3] = dyv(r)
				pos[3].Z = c
			} else {
				pos[3] = x.Sub(pos[2].Scale(1 - v)).Scale(1 / v)
			}
			for i := range vel {
				vel[i].Z = 0
			}
		}
	}
	var q Query
	q.Kind = kind
	for i := range pos {
		q.Start[i], q.End[i] = moving(pos[i], vel[i], ts)
	}
	return contactCase{name: name, q: q, T: ts, U: u, V: v}
}

// transform applies x -> s x + o to every point (exact for the powers of
// two and integer offsets used).
func (c contactCase) transform(s float64, o geom.Vec3) contactCase {
	for i := range c.q.Start {
		c.q.Start[i] = c.q.Start[i].Scale(s).Add(o)
		c.q.End[i] = c.q.End[i].Scale(s).Add(o)
	}
	return c
}

func fmtQuery(q *Query) string {
	return fmt.Sprintf("Query{Kind: %v, Start: %v, End: %v}", q.Kind, q.Start, q.End)
}

// TestConstructedContacts: queries with an exact contact at a known time
// t* (verified with rational arithmetic) must be hits with TOI <= t*, in
// every adversarial family and at every scale.
func TestConstructedContacts(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 2))
	scales := []struct {
		name string
		s    float64
		o    geom.Vec3
	}{
		{"unit", 1, geom.Vec3{}},
		{"huge", 0x1p27, geom.Vec3{}},          // ~1.3e8
		{"tiny", 0x1p-27, geom.Vec3{}},         // ~7.5e-9
		{"far", 1, geom.V(1e8, -1e8, 3e8)},     // coordinates ~1e8, offsets exact
		{"extreme", 0x1p600, geom.Vec3{}},      // rescaled internally
		{"subtle", 0x1p-600, geom.Vec3{}},      // rescaled internally
		{"tiny-far", 0x1p-20, geom.V(1, 2, 3)}, // small features far from the origin
	}
	n := cases(400)
	gap, hits := 0.0, 0
	for _, kind := range []contact.PairKind{contact.VertexFace, contact.EdgeEdge} {
		for variant := 0; variant < 4; variant++ {
			for _, sc := range scales {
				for i := 0; i < n/len(scales); i++ {
					c := makeContact(r, kind, variant).transform(sc.s, sc.o)
					if !exactContact(&c.q, c.T, c.U, c.V) {
						// The offset made a coordinate inexact; the
						// oracle rejects the case.
						continue
					}
					res := c.q.Test(Options{})
					if !res.Hit() || res.Time > c.T {
						t.Fatalf("%s %s %v: contact at t=%v (u=%v v=%v) but got %+v\n%s", c.name, sc.name, kind, c.T, c.U, c.V, res, fmtQuery(&c.q))
					}
					gap += c.T - res.Time
					hits++
					if d := (Options{MinDistance: 0.5}); !c.q.Test(d).Hit() {
						t.Fatalf("%s: MinDistance 0.5 lost the contact\n%s", c.name, fmtQuery(&c.q))
					}
				}
			}
		}
	}
	t.Logf("%d constructed contacts found; mean t* - TOI = %.3g (t* is a contact, not necessarily the first)", hits, gap/float64(hits))
}

// TestSeparatedByPlane: primitives kept strictly on two sides of a plane
// (checked exactly) never touch; the Inclusion method must say so nearly
// always (a false positive is allowed, but must be rare).
func TestSeparatedByPlane(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 3))
	n := cases(2000)
	fp := 0
	total := 0
	for i := 0; i < n; i++ {
		kind := queryKinds[i%2]
		nrm := dyv(r)
		if nrm == (geom.Vec3{}) {
			continue
		}
		gapExp := -(r.IntN(30) + 1)
		g := math.Ldexp(1, gapExp)
		var q Query
		q.Kind = kind
		ok := true
		for j := 0; j < 4; j++ {
			side := 1.0
			if (kind == contact.VertexFace && j > 0) || (kind == contact.EdgeEdge && j > 1) {
				side = -1
			}
			for _, p := range []*geom.Vec3{&q.Start[j], &q.End[j]} {
				x := dyv(r)
				// Push x to the side: x + (side*g - n.x/|n|^2... ) kept
				// simple: move along n until exactly on the right side.
				for k := 0; k < 60 && side*nrm.Dot(x) < g; k++ {
					x = x.Add(nrm.Scale(side * 0.25))
				}
				*p = x
				// Exact check of the side.
				d := new(big.Rat)
				for c := 0; c < 3; c++ {
					d.Add(d, new(big.Rat).Mul(rat(nrm.Get(c)), rat(x.Get(c))))
				}
				if side < 0 {
					d.Neg(d)
				}
				if d.Sign() <= 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		total++
		if res := q.Test(Options{}); res.Hit() {
			fp++
			if fp <= 3 {
				t.Logf("false positive (allowed, should be rare): %+v\n%s", res, fmtQuery(&q))
			}
		}
	}
	t.Logf("%d certified-separated queries, %d false positives", total, fp)
	if total < n/2 || 100*fp > total {
		t.Errorf("%d false positives of %d", fp, total)
	}
}

// TestAgainstCubicGeneric: on random generic queries where Jansen's cubic
// finds a well-conditioned contact (root inside (0.01, 0.99), parameters
// away from the boundary), the contact is certain, and the Inclusion method
// must report it no later.
func TestAgainstCubicGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 4))
	n := cases(4000)
	var checked, hits int
	for i := 0; i < n; i++ {
		var q Query
		q.Kind = queryKinds[i%2]
		for j := 0; j < 4; j++ {
			q.Start[j] = geom.V(r.Float64()*2-1, r.Float64()*2-1, r.Float64()*2-1)
			q.End[j] = geom.V(r.Float64()*2-1, r.Float64()*2-1, r.Float64()*2-1)
		}
		c := q.Test(Options{Method: Cubic})
		inc := q.Test(Options{})
		if inc.Hit() {
			hits++
		}
		if !c.Hit() || c.Time < 0.01 || c.Time > 0.99 {
			continue
		}
		m := 0.01
		inner := c.U > m && c.V > m && c.U < 1-m && c.V < 1-m
		if q.Kind == contact.VertexFace {
			inner = c.U > m && c.V > m && c.U+c.V < 1-m
		}
		if !inner {
			continue
		}
		checked++
		if !inc.Hit() || inc.Time > c.Time+1e-9 {
			t.Fatalf("cubic finds a clear contact at %v (u=%v v=%v), inclusion says %+v\n%s", c.Time, c.U, c.V, inc, fmtQuery(&q))
		}
	}
	t.Logf("%d random queries, %d inclusion hits, %d clear cubic contacts checked", n, hits, checked)
	if checked < n/100 {
		t.Errorf("only %d clear contacts: the generator does not exercise the test", checked)
	}
}

// TestSpecialCases covers hand-made degenerate queries.
func TestSpecialCases(t *testing.T) {
	v := geom.V
	tri := [3]geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}
	for _, c := range []struct {
		name       string
		q          Query
		hit        bool
		maxTOI     float64
		minTOI     float64
		normalSign float64 // expected Normal.Z sign, from A (vertex, edge A) to B (0: not checked)
	}{
		{"vf crossing at t=0.5", Query{contact.VertexFace, [4]geom.Vec3{v(0.25, 0.25, 1), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.25, 0.25, -1), tri[0], tri[1], tri[2]}}, true, 0.5, 0.49, -1},
		{"vf touching at t=1", Query{contact.VertexFace, [4]geom.Vec3{v(0.25, 0.25, 1), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.25, 0.25, 0), tri[0], tri[1], tri[2]}}, true, 1, 0.99, -1},
		{"vf touching at t=0", Query{contact.VertexFace, [4]geom.Vec3{v(0.25, 0.25, 0), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.25, 0.25, 1), tri[0], tri[1], tri[2]}}, true, 0, 0, 1},
		{"vf passing beside", Query{contact.VertexFace, [4]geom.Vec3{v(0.75, 0.75, 1), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.75, 0.75, -1), tri[0], tri[1], tri[2]}}, false, 0, 0, 0},
		{"vf sliding in plane, outside", Query{contact.VertexFace, [4]geom.Vec3{v(2, 0, 0), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.6, 0.6, 0), tri[0], tri[1], tri[2]}}, false, 0, 0, 0},
		{"vf sliding in plane, entering at edge", Query{contact.VertexFace, [4]geom.Vec3{v(2, 0.25, 0), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.5, 0.25, 0), tri[0], tri[1], tri[2]}}, true, 0.8333333333333334, 0.83, 0},
		{"vf zero motion on face", Query{contact.VertexFace, [4]geom.Vec3{v(0.25, 0.25, 0), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.25, 0.25, 0), tri[0], tri[1], tri[2]}}, true, 0, 0, 0},
		{"vf zero motion apart", Query{contact.VertexFace, [4]geom.Vec3{v(0.25, 0.25, 1e-300), tri[0], tri[1], tri[2]}, [4]geom.Vec3{v(0.25, 0.25, 1e-300), tri[0], tri[1], tri[2]}}, false, 0, 0, 0},
		{"ee crossing", Query{contact.EdgeEdge, [4]geom.Vec3{v(-1, 0, 1), v(1, 0, 1), v(0, -1, 0), v(0, 1, 0)}, [4]geom.Vec3{v(-1, 0, -1), v(1, 0, -1), v(0, -1, 0), v(0, 1, 0)}}, true, 0.5, 0.49, -1},
		{"ee parallel apart", Query{contact.EdgeEdge, [4]geom.Vec3{v(0, 0, 1e-9), v(1, 0, 1e-9), v(0, 0, 0), v(1, 0, 0)}, [4]geom.Vec3{v(5, 0, 1e-9), v(6, 0, 1e-9), v(0, 0, 0), v(1, 0, 0)}}, false, 0, 0, 0},
		{"ee collinear sliding into overlap", Query{contact.EdgeEdge, [4]geom.Vec3{v(2, 0, 0), v(3, 0, 0), v(0, 0, 0), v(1, 0, 0)}, [4]geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 0, 0), v(1, 0, 0)}}, true, 0.5, 0.49, 0},
		{"ee endpoints meet at t=1", Query{contact.EdgeEdge, [4]geom.Vec3{v(-1, -1, 0), v(1, -1, 0), v(-1, 1, -1), v(-1, 1, 1)}, [4]geom.Vec3{v(-1, 0, 0), v(1, 0, 0), v(-1, 0, -1), v(-1, 0, 1)}}, true, 1, 0.99, 0},
		{"ee endpoints miss by 2^-40 at t=1", Query{contact.EdgeEdge, [4]geom.Vec3{v(-1, -1, 0), v(1, -1, 0), v(-1-0x1p-40, 1, -1), v(-1-0x1p-40, 1, 1)}, [4]geom.Vec3{v(-1, 0, 0), v(1, 0, 0), v(-1-0x1p-40, 0, -1), v(-1-0x1p-40, 0, 1)}}, false, 0, 0, 0},
	} {
		res := c.q.Test(Options{})
		if res.Hit() != c.hit {
			t.Errorf("%s: hit %v, want %v (%+v)", c.name, res.Hit(), c.hit, res)
			continue
		}
		if !c.hit {
			continue
		}
		if res.Time > c.maxTOI || res.Time < c.minTOI {
			t.Errorf("%s: TOI %v, want in [%v, %v]", c.name, res.Time, c.minTOI, c.maxTOI)
		}
		if c.normalSign != 0 && res.Normal.Z*c.normalSign <= 0.99 {
			t.Errorf("%s: normal %v", c.name, res.Normal)
		}
	}
}

// TestInvalid: non-finite inputs and bad options give Invalid, and Check
// names the culprit.
func TestInvalid(t *testing.T) {
	q := Query{Kind: contact.EdgeEdge}
	q.End[2].Y = math.NaN()
	for _, m := range []Method{Inclusion, Cubic} {
		if r := q.Test(Options{Method: m}); r.Status != Invalid {
			t.Errorf("%v: NaN gave %v", m, r.Status)
		}
	}
	if _, err := q.Check(Options{}); err == nil || err.Error() != "ccd: query: vertex 2 (B0) at t=1: y is NaN" {
		t.Errorf("Check: %v", err)
	}
	q.End[2].Y = math.Inf(1)
	if r := q.Test(Options{}); r.Status != Invalid {
		t.Errorf("Inf gave %v", r.Status)
	}
	q.End[2].Y = 0
	for _, o := range []Options{{MinDistance: -1}, {MinDistance: math.NaN()}, {Tolerance: math.Inf(1)}, {MaxBoxes: -1}, {Method: 7}} {
		if r := q.Test(o); r.Status != Invalid {
			t.Errorf("%+v gave %v", o, r.Status)
		}
		if o.Validate() == nil {
			t.Errorf("%+v validated", o)
		}
	}
	if _, err := ParseMethod("nope"); err == nil {
		t.Error("ParseMethod accepted nope")
	}
	for _, name := range Methods() {
		m, err := ParseMethod(name)
		if err != nil || m.String() != name {
			t.Errorf("method %q round trip: %v %v", name, m, err)
		}
	}
}

// TestMinDistance: a point passing at height h over a face is within d
// exactly when d >= h.
func TestMinDistance(t *testing.T) {
	v := geom.V
	for _, h := range []float64{1e-6, 0.01, 0.5, 3} {
		q := Query{contact.VertexFace,
			[4]geom.Vec3{v(-1, 0.25, h), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)},
			[4]geom.Vec3{v(2, 0.25, h), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}}
		if r := q.Test(Options{MinDistance: h}); !r.Hit() || r.Time > 1.0/3 {
			t.Errorf("h=%v: d=h gave %+v", h, r)
		}
		if r := q.Test(Options{MinDistance: h / 2}); r.Hit() {
			t.Errorf("h=%v: d=h/2 gave %+v", h, r)
		}
	}
}

// TestCapped: a tiny box budget ends the search conservatively.
func TestCapped(t *testing.T) {
	v := geom.V
	q := Query{contact.EdgeEdge, [4]geom.Vec3{v(-1, 0, 1), v(1, 0, 1), v(0, -1, 0), v(0, 1, 0)}, [4]geom.Vec3{v(-1, 0, -1), v(1, 0, -1), v(0, -1, 0), v(0, 1, 0)}}
	r := q.Test(Options{MaxBoxes: 1})
	if !r.Hit() || !r.Capped || r.Time != 0 {
		t.Errorf("capped: %+v", r)
	}
	if r := q.Test(Options{}); !r.Hit() || r.Capped || r.Time > 0.5 || r.Time < 0.49 {
		t.Errorf("uncapped: %+v", r)
	}
}

// TestNoAllocs: queries do not allocate.
func TestNoAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	r := rand.New(rand.NewPCG(1, 5))
	c := makeContact(r, contact.EdgeEdge, 0)
	for _, m := range []Method{Inclusion, Cubic} {
		if a := testing.AllocsPerRun(100, func() { c.q.Test(Options{Method: m}) }); a != 0 {
			t.Errorf("%v: %v allocations per query", m, a)
		}
	}
}

// TestRegressions keeps queries that once failed, with their exact
// coordinates.
func TestRegressions(t *testing.T) {
	v := geom.V
	for _, c := range []struct {
		name   string
		q      Query
		maxTOI float64 // a known contact time (verified exactly)
		u, w   float64
	}{
		// A second Newton root later in time used to raise the time of
		// impact past an earlier one (TOI 0.988 for a contact at 0.5625).
		{"late second root", Query{Kind: contact.VertexFace, Start: [4]geom.Vec3{v(7.32688931748271e-09, -2.7619535103440285e-08, 3.3993273973464966e-08), v(2.962769940495491e-08, 1.70330167748034e-08, 2.285378286615014e-08), v(-5.966285243630409e-10, -1.6683770809322596e-08, 2.7706846594810486e-08), v(2.4883775040507317e-09, 1.0695657692849636e-09, -3.458990249782801e-08)}, End: [4]geom.Vec3{v(-2.801243681460619e-09, -1.4115357771515846e-08, 9.778887033462524e-09), v(4.48198989033699e-09, 2.4811015464365482e-09, 2.692831913009286e-08), v(3.3614924177527428e-09, -2.262095222249627e-08, 1.4668330550193787e-08), v(-1.6836565919220448e-08, -1.883745426312089e-08, -1.0142684914171696e-08)}}, 0.5625, 1, 0},
	} {
		if !exactContact(&c.q, c.maxTOI, c.u, c.w) {
			t.Fatalf("%s: the oracle does not confirm the contact", c.name)
		}
		if r := c.q.Test(Options{}); !r.Hit() || r.Time > c.maxTOI {
			t.Errorf("%s: %+v, want a hit at or before %v", c.name, r, c.maxTOI)
		}
	}
}

// TestNormalFromAToB checks the normal of random hits against geometry
// computed independently at t=0: B (a fixed triangle or segment) lies on
// the positive side of the normal from A's start position (for
// vertex-face, the vertex is on the negative side of the triangle's plane
// oriented by the normal; for edge-edge, the closest points of the two
// segments at t=0 go from A to B along the normal). Queries are drawn so
// that about half hit.
func TestNormalFromAToB(t *testing.T) {
	rng := rand.New(rand.NewPCG(*seed, 21))
	n := cases(2000)
	for _, kind := range []contact.PairKind{contact.VertexFace, contact.EdgeEdge} {
		hits := 0
		for i := 0; i < n; i++ {
			var q Query
			q.Kind = kind
			// B fixed near the origin, A moving from one side through
			// the region around it.
			if kind == contact.VertexFace {
				q.Start[1], q.Start[2], q.Start[3] = geom.V(-1, -1, 0), geom.V(1, -1, 0.2), geom.V(0, 1, -0.2)
				q.End[1], q.End[2], q.End[3] = q.Start[1], q.Start[2], q.Start[3]
				q.Start[0] = geom.V(rng.Float64()*2.8-1.4, rng.Float64()*2.8-1.4, 1+rng.Float64())
				if rng.IntN(2) == 0 {
					q.Start[0].Z = -q.Start[0].Z
				}
				q.End[0] = geom.V(rng.Float64()*2.8-1.4, rng.Float64()*2.8-1.4, -q.Start[0].Z)
			} else {
				q.Start[2], q.Start[3] = geom.V(-1, 0, 0), geom.V(1, 0.3, 0.1)
				q.End[2], q.End[3] = q.Start[2], q.Start[3]
				z := 1 + rng.Float64()
				if rng.IntN(2) == 0 {
					z = -z
				}
				x0 := rng.Float64()*3 - 1.5
				q.Start[0], q.Start[1] = geom.V(x0, -1, z), geom.V(x0+rng.Float64()-0.5, 1, z)
				q.End[0], q.End[1] = q.Start[0].Add(geom.V(0, 0, -2*z)), q.Start[1].Add(geom.V(0, 0, -2*z))
			}
			r := q.Test(Options{})
			if !r.Hit() {
				continue
			}
			hits++
			if math.Abs(r.Normal.Norm()-1) > 1e-12 {
				t.Fatalf("%v case %d: normal %v is not unit\n%s", kind, i, r.Normal, fmtQuery(&q))
			}
			var ab geom.Vec3 // from A towards B at t=0
			if kind == contact.VertexFace {
				// Foot of the vertex on the triangle's plane, by the
				// plane's own normal (sign fixed by the corners' order).
				pn := q.Start[2].Sub(q.Start[1]).Cross(q.Start[3].Sub(q.Start[1]))
				ab = pn.Scale(-pn.Dot(q.Start[0].Sub(q.Start[1])))
			} else {
				_, _, pa, pb := geom.ClosestSegmentPoints(q.Start[0], q.Start[1], q.Start[2], q.Start[3])
				ab = pb.Sub(pa)
			}
			if r.Normal.Dot(ab) <= 0 {
				t.Fatalf("%v case %d: normal %v does not point from A to B (A to B at t=0: %v)\n%s", kind, i, r.Normal, ab, fmtQuery(&q))
			}
			// The record carries the same contact.
			c := r.Record()
			if c.Status != contact.Hit || c.Time != r.Time || c.Normal != r.Normal || c.Point != r.Point || c.Validate() != nil {
				t.Fatalf("%v case %d: record %+v of %+v", kind, i, c, r)
			}
		}
		if rate := float64(hits) / float64(n); rate < 0.3 || rate > 0.7 {
			t.Errorf("%v: hit rate %.2f, want 0.3-0.7", kind, rate)
		}
	}
}

// TestRecordStatus: the zero Status is Unknown, misses give no record, and
// a capped hit is an unconfirmed contact.
func TestRecordStatus(t *testing.T) {
	if (Result{}).Status != Unknown || Unknown.String() != "unknown" {
		t.Fatal("zero Status is not Unknown")
	}
	tri := [3]geom.Vec3{geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)}
	miss := VertexFace([4]geom.Vec3{geom.V(2, 2, 1), tri[0], tri[1], tri[2]}, [4]geom.Vec3{geom.V(2, 2, -1), tri[0], tri[1], tri[2]}, Options{})
	if miss.Status != Separated || miss.Record().Status != contact.Unknown {
		t.Errorf("miss: %+v, record %+v", miss, miss.Record())
	}
	q := Query{contact.VertexFace, [4]geom.Vec3{geom.V(0.25, 0.25, 1), tri[0], tri[1], tri[2]}, [4]geom.Vec3{geom.V(0.25, 0.25, -1), tri[0], tri[1], tri[2]}}
	capped := q.Test(Options{MaxBoxes: 1})
	if !capped.Capped || capped.Record().Status != contact.Unconfirmed {
		t.Errorf("capped: %+v, record %+v", capped, capped.Record())
	}
}
