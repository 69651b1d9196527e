package screw

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// eePropUpper returns an upper bound of the properness (Sec. 5, formula
// (7)) of the edge-edge contacts of candidate c within h of a time tm
// whose rotation angle has sine sn and cosine cs; dA is A's edge
// direction, dB B's at time 0.
//
// The properness is, with the unit normal n = unit(uA x uB) and the sign
// of n chosen to maximize it, the minimum of four terms (n x u) . f over
// the edges' unit directions u and adjacent face normals f. At tm it is
// evaluated from m = dA x R(tm) dB without normalizing the edges
// separately; over the window it moves by at most theta h (B's directions
// turn at angular speed theta) plus the turn of n, at most
// theta h / (mu - theta h) with mu = |uA x uB(tm)| (the derivative of a unit
// vector is at most that of the vector over its length).
func (d *Detector) eePropUpper(c *cand, da, db geom.Vec3, h, sn, cs float64) float64 {
	w := d.theta * h
	la2, lb2 := da.Dot(da), db.Dot(db)
	m := da.Cross(rotSC(db, sn, cs))
	m2 := m.Dot(m)
	la, lb, mm := math.Sqrt(la2), math.Sqrt(lb2), math.Sqrt(m2)
	mu := mm / (la * lb)
	if !(mu > 2*w) {
		return math.Inf(1)
	}
	ea := &d.a.m.Edges[c.a]
	eb := &d.b.m.Edges[c.b]
	// (n x uA) . f = (m x dA) . f / (|m| la); for B's faces the same in
	// B's time-0 frame with m turned back: (R(-t) m x dB) . f0 / (|m| lb).
	ma := m.Cross(da)
	mb := geom.Vec3{X: m.X*cs - m.Z*sn, Y: m.Y, Z: m.X*sn + m.Z*cs}.Cross(db)
	ia, ib := 1/(mm*la), 1/(mm*lb)
	pos, neg := math.Inf(1), math.Inf(1) // the minimum for n and for -n
	if ea.Left >= 0 {
		x := ma.Dot(d.a.nrm[ea.Left]) * ia
		pos, neg = min(pos, x), min(neg, -x)
	}
	if ea.Right >= 0 {
		x := -ma.Dot(d.a.nrm[ea.Right]) * ia
		pos, neg = min(pos, x), min(neg, -x)
	}
	if eb.Left >= 0 {
		x := -mb.Dot(d.b.nrm[eb.Left]) * ib
		pos, neg = min(pos, x), min(neg, -x)
	}
	if eb.Right >= 0 {
		x := mb.Dot(d.b.nrm[eb.Right]) * ib
		pos, neg = min(pos, x), min(neg, -x)
	}
	if math.IsInf(pos, 1) {
		return math.Inf(1) // no faces: propEE gives 0
	}
	return max(pos, neg) + w/(mu-w) + w + propPad
}

// eeEndsAway reports whether, during [tm - h, tm + h], each end of either
// edge of candidate c stays farther from the other edge's line than the
// tolerances of eeCheck allow for a contact within endEps of that end.
// Contacts there are recorded as vertex-face collisions of another
// properness (addEEHit), so a pair whose edge-edge properness is too low
// can be skipped only when none of its contacts can be one of those. p, dA
// are A's edge, q0, dB B's at time 0, and sn, cs the sine and cosine of the
// rotation angle at tm. The distances are bounded over the window by how
// fast they can change.
func (d *Detector) eeEndsAway(p, da, q0, db geom.Vec3, tm, h, sn, cs float64) bool {
	th := d.theta
	w := th * h
	la2, lb2 := da.Dot(da), db.Dot(db)
	// A contact within endEps of A's end va has the closest points within
	// endEps la (or eeCheck's tol) of va and within 1e-6 scale of each
	// other, so va is that close to B's line; sqrt(x) <= (1 + x)/2 bounds
	// the edge lengths.
	g := math.Abs(d.g)
	tolA := endEps*(1+la2)/2 + 1.01*eeMeetRel*d.scale
	tolB := endEps*(1+lb2)/2 + 1.01*eeMeetRel*d.scale
	dbt := rotSC(db, sn, cs)
	q := d.moveSC(q0, tm, sn, cs, false)
	m := da.Cross(dbt)
	// dist(va, B's line) = |(va - q) x dB| / lb changes at most by
	// |q'| + |va - q| theta per unit time; dist(vb(t), A's line) =
	// |(vb - p) x dA| / la at most as fast as vb moves. The crosses of
	// the second ends follow from those of the first: (va + dA - q) x dB
	// adds m = dA x dB, (vb + dB - p) x dA subtracts it.
	wv := p.Sub(q)
	ca := wv.Cross(dbt)
	cb := da.Cross(wv)                                       // (q - p) x dA
	vq := th*(math.Abs(q0.X-d.u.X)+math.Abs(q0.Z-d.u.Z)) + g // bounds the speed of q
	for k := 0; k < 2; k++ {
		if k == 1 {
			wv = wv.Add(da)
			ca = ca.Add(m)
			cb = cb.Sub(m)
			q0 = q0.Add(db)
		}
		l := (vq*(1+w)+th*(math.Abs(wv.X)+math.Abs(wv.Y)+math.Abs(wv.Z)))*h + tolA
		if ca.Dot(ca) <= l*l*lb2 {
			return false
		}
		l = (th*(math.Abs(q0.X-d.u.X)+math.Abs(q0.Z-d.u.Z))+g)*h + tolB
		if cb.Dot(cb) <= l*l*la2 {
			return false
		}
	}
	return true
}

// eeEndsLikelyAway is a cheap guess whether eeEndsAway can succeed on a
// window of half-width h: whether B's edge moves by less than a quarter of
// the shorter edge's length in it (a bound of its speed from the
// coordinates, times h). Short windows and slow motions pass.
func (d *Detector) eeEndsLikelyAway(da, q0, db geom.Vec3, h float64) bool {
	r := math.Abs(q0.X-d.u.X) + math.Abs(q0.Z-d.u.Z) + math.Abs(db.X) + math.Abs(db.Z)
	l := (math.Abs(d.g) + d.theta*r) * h
	return l*l < (1.0/16)*min(da.Dot(da), db.Dot(db))
}
