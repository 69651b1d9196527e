// Package refgeom holds geometry written for collide's references and
// oracles (the benchmark judges of package bench and the simulation checks
// of package sim's tests), independently of the library's narrow phases:
// none of those call it.
package refgeom

import "github.com/collide-go/collide/geom"

// ClosestOnTriangle returns the point of triangle abc closest to p
// (Ericson, Real-Time Collision Detection, Sec. 5.1.5).
func ClosestOnTriangle(p, a, b, c geom.Vec3) geom.Vec3 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.Add(ab.Scale(d1 / (d1 - d3)))
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.Add(ac.Scale(d2 / (d2 - d6)))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.Add(c.Sub(b).Scale((d4 - d3) / ((d4 - d3) + (d5 - d6))))
	}
	den := 1 / (va + vb + vc)
	// The projection onto the plane, along the normal (accurate when p is
	// close to a large triangle).
	n := ab.Cross(ac)
	if nn := n.Dot(n); nn > 0 {
		return p.Sub(n.Scale(ap.Dot(n) / nn))
	}
	return a.Add(ab.Scale(vb * den)).Add(ac.Scale(vc * den))
}
