package ccd

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

// Kind is the kind of an elementary query.
type Kind uint8

const (
	// KindVertexFace is a point against a triangle: Start and End hold
	// P, A, B, C (the point, then the triangle's vertices).
	KindVertexFace Kind = iota
	// KindEdgeEdge is a segment against a segment: Start and End hold
	// A0, A1, B0, B1 (edge A, then edge B).
	KindEdgeEdge
)

// String returns "vf" or "ee".
func (k Kind) String() string {
	switch k {
	case KindVertexFace:
		return "vf"
	case KindEdgeEdge:
		return "ee"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind accepts "vf", "vertex-face", "ee" and "edge-edge".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "vf", "vertex-face":
		return KindVertexFace, nil
	case "ee", "edge-edge":
		return KindEdgeEdge, nil
	}
	return 0, fmt.Errorf("ccd: unknown query kind %q (want vf or ee)", s)
}

// Method selects the algorithm that answers a query.
type Method uint8

const (
	// Inclusion is the default, conservative method: inclusion-based
	// bisection of the (t, u, v) parameter box with rigorous
	// floating-point error bounds. It never misses a contact.
	Inclusion Method = iota
	// Cubic is Jansen's method as written (Sec. 3.1-3.4): the closed-form
	// roots of the coplanarity cubic, complex cube roots in polar form,
	// then the intersection test at each root. Fast, float64, and not
	// conservative: it misses contacts in degenerate cases.
	Cubic
	numMethods
)

var methodNames = [numMethods]string{"inclusion", "cubic"}

// String returns the method's name as accepted by ParseMethod.
func (m Method) String() string {
	if m < numMethods {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", uint8(m))
}

// Methods returns the names of all methods, the default first.
func Methods() []string { return methodNames[:] }

// ParseMethod returns the method with the given name; the empty string
// means the default (Inclusion).
func ParseMethod(name string) (Method, error) {
	if name == "" {
		return Inclusion, nil
	}
	for i, n := range methodNames {
		if n == name {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("ccd: unknown method %q (want one of %v)", name, methodNames)
}

// DefaultMaxBoxes is the number of parameter boxes the Inclusion method
// examines before it stops and reports a (conservative) contact.
const DefaultMaxBoxes = 1024

// Options configures a query. The zero value is the default: the Inclusion
// method, exact contact (no separation distance), the tightest tolerance and
// DefaultMaxBoxes.
type Options struct {
	// Method is the algorithm; zero means Inclusion.
	Method Method
	// MinDistance, in length units, reports contact as soon as the
	// primitives come within this distance. Zero means touching. The
	// Inclusion method tests it per coordinate, so it may also report
	// configurations up to MinDistance*sqrt(3) apart (never fewer
	// than those within MinDistance). Cubic ignores it.
	MinDistance float64
	// Tolerance, in length units, is how close to contact (beyond the
	// rounding error bound) a whole parameter box must be before the
	// Inclusion method considers it a contact (after a second, tighter
	// filter fails to refute it). Zero means DefaultRelTolerance times
	// the largest coordinate magnitude on each axis. A larger value
	// makes near-contacts cheaper and may report contacts for primitives
	// that stay up to about Tolerance apart; it never causes a missed
	// contact.
	Tolerance float64
	// MaxBoxes bounds the work of the Inclusion method; zero means
	// DefaultMaxBoxes. When the budget runs out the query reports a hit
	// with Capped set and the earliest time not yet ruled out.
	MaxBoxes int
}

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	if o.Method >= numMethods {
		return fmt.Errorf("ccd: options: unknown method %d", o.Method)
	}
	if !(o.MinDistance >= 0) || math.IsInf(o.MinDistance, 0) {
		return fmt.Errorf("ccd: options: MinDistance %v must be finite and >= 0", o.MinDistance)
	}
	if !(o.Tolerance >= 0) || math.IsInf(o.Tolerance, 0) {
		return fmt.Errorf("ccd: options: Tolerance %v must be finite and >= 0", o.Tolerance)
	}
	if o.MaxBoxes < 0 {
		return fmt.Errorf("ccd: options: MaxBoxes %d must be >= 0", o.MaxBoxes)
	}
	return nil
}

// Status is the outcome of a query.
type Status uint8

const (
	// Separated: the primitives do not touch (come within MinDistance)
	// for any t in [0, 1].
	Separated Status = iota
	// Hit: the primitives touch; Result.TOI is no later than the first
	// contact.
	Hit
	// Invalid: a coordinate is NaN or infinite, or the options are
	// invalid (see Query.Validate and Options.Validate).
	Invalid
)

// String returns "separated", "hit" or "invalid".
func (s Status) String() string {
	switch s {
	case Separated:
		return "separated"
	case Hit:
		return "hit"
	case Invalid:
		return "invalid"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is the answer to a query.
type Result struct {
	Status Status
	// TOI is the time of impact in [0, 1] when Status is Hit. For the
	// Inclusion method it is never later than the true first contact.
	TOI float64
	// U and V locate the contact: for vertex-face the barycentric weights
	// of B and C (the point is near (1-U-V) A + U B + V C); for edge-edge
	// the parameters along edge A and edge B.
	U, V float64
	// Point is the contact point at TOI: the moving vertex for
	// vertex-face, the point of edge A at U for edge-edge.
	Point geom.Vec3
	// Normal is the unit contact normal at TOI, or the zero vector where it
	// is not defined (degenerate triangle, parallel edges). For
	// vertex-face it is the triangle's normal oriented toward the
	// vertex's side at t=0; for edge-edge the normal of the two edge
	// directions oriented from edge B toward edge A at t=0.
	Normal geom.Vec3
	// Capped is set when the Inclusion method ran out of its box budget:
	// the hit is then not confirmed, and TOI is the earliest time not
	// ruled out.
	Capped bool
	// Boxes is the number of parameter boxes the Inclusion method
	// examined (0 for Cubic).
	Boxes int
}

// Hit reports whether the result is a contact.
func (r Result) Hit() bool { return r.Status == Hit }

// Query is one elementary continuous collision query: four points moving
// linearly from Start (t=0) to End (t=1). The point order is that of the
// benchmark files: P, A, B, C for vertex-face; A0, A1, B0, B1 for edge-edge.
type Query struct {
	Kind       Kind
	Start, End [4]geom.Vec3
}

var vfNames = [4]string{"P", "A", "B", "C"}
var eeNames = [4]string{"A0", "A1", "B0", "B1"}

// Validate returns an error naming the first non-finite coordinate.
func (q *Query) Validate() error {
	names := &vfNames
	if q.Kind == KindEdgeEdge {
		names = &eeNames
	} else if q.Kind != KindVertexFace {
		return fmt.Errorf("ccd: query: unknown kind %d", q.Kind)
	}
	for ti, pts := range [2]*[4]geom.Vec3{&q.Start, &q.End} {
		for i, p := range pts {
			for c := 0; c < 3; c++ {
				if x := p.Get(c); math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("ccd: query: vertex %d (%s) at t=%d: %c is %v", i, names[i], ti, "xyz"[c], x)
				}
			}
		}
	}
	return nil
}

// ErrInvalid is returned by Check for queries that cannot be answered.
var ErrInvalid = errors.New("ccd: invalid query")

// Check is Test returning an error instead of an Invalid status: the error
// names the bad coordinate or option.
func (q *Query) Check(opt Options) (Result, error) {
	if err := opt.Validate(); err != nil {
		return Result{Status: Invalid}, err
	}
	if err := q.Validate(); err != nil {
		return Result{Status: Invalid}, err
	}
	r := q.Test(opt)
	if r.Status == Invalid {
		return r, ErrInvalid
	}
	return r, nil
}

// Test answers the query with the method in opt. It never allocates. A
// non-finite coordinate or invalid options give Status Invalid.
func (q *Query) Test(opt Options) Result {
	if !finite(q) || !(opt.MinDistance >= 0) || opt.MinDistance > math.MaxFloat64 ||
		!(opt.Tolerance >= 0) || opt.Tolerance > math.MaxFloat64 || opt.MaxBoxes < 0 {
		return Result{Status: Invalid}
	}
	switch opt.Method {
	case Inclusion:
		return inclusion(q, opt)
	case Cubic:
		if q.Kind > KindEdgeEdge {
			return Result{Status: Invalid}
		}
		return cubic(q)
	}
	return Result{Status: Invalid}
}

// VertexFace tests point p against triangle (a, b, c), given as
// start = {p, a, b, c} at t=0 and end at t=1.
func VertexFace(start, end [4]geom.Vec3, opt Options) Result {
	q := Query{Kind: KindVertexFace, Start: start, End: end}
	return q.Test(opt)
}

// EdgeEdge tests segment (a0, a1) against segment (b0, b1), given as
// start = {a0, a1, b0, b1} at t=0 and end at t=1.
func EdgeEdge(start, end [4]geom.Vec3, opt Options) Result {
	q := Query{Kind: KindEdgeEdge, Start: start, End: end}
	return q.Test(opt)
}

// finite reports whether every coordinate of q is finite.
func finite(q *Query) bool {
	s := 0.0
	for i := 0; i < 4; i++ {
		a, b := q.Start[i], q.End[i]
		s += a.X*0 + a.Y*0 + a.Z*0 + b.X*0 + b.Y*0 + b.Z*0
	}
	return s == 0
}

// at returns the position of point i at time t.
func (q *Query) at(i int, t float64) geom.Vec3 { return q.Start[i].Lerp(q.End[i], t) }

// contact fills in the point and normal of a hit at time t with
// parameters (u, v) (barycentric weights of B and C for vertex-face, edge
// parameters for edge-edge).
func (q *Query) contact(r *Result, t, u, v float64) {
	r.TOI, r.U, r.V = t, u, v
	p0, p1, p2, p3 := q.at(0, t), q.at(1, t), q.at(2, t), q.at(3, t)
	var n, side geom.Vec3
	if q.Kind == KindVertexFace {
		r.Point = p0
		n = p2.Sub(p1).Cross(p3.Sub(p1))
		side = q.Start[0].Sub(q.Start[1].Scale(1 - u - v).Add(q.Start[2].Scale(u)).Add(q.Start[3].Scale(v)))
	} else {
		r.Point = p0.Lerp(p1, u)
		n = p1.Sub(p0).Cross(p3.Sub(p2))
		side = q.Start[0].Lerp(q.Start[1], u).Sub(q.Start[2].Lerp(q.Start[3], v))
	}
	nn, ok := n.Normalize()
	if !ok {
		r.Normal = geom.Vec3{}
		return
	}
	if nn.Dot(side) < 0 {
		nn = nn.Neg()
	}
	r.Normal = nn
}
