package ccd

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/enumname"
)

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
func (m Method) String() string { return enumname.Of(methodNames[:], m, "Method") }

// Methods returns the names of all methods, the default first.
func Methods() []string { return methodNames[:] }

// ParseMethod returns the method with the given name; the empty string
// means the default (Inclusion).
func ParseMethod(name string) (Method, error) {
	if name == "" {
		return Inclusion, nil
	}
	if i := slices.Index(methodNames[:], name); i >= 0 {
		return Method(i), nil
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

// Status is the outcome of a query. Its zero value, Unknown, is never
// returned by a query: a Result with Status Unknown has not been filled in.
type Status uint8

const (
	// Unknown is the zero value: no answer.
	Unknown Status = iota
	// Separated: the primitives do not touch (come within MinDistance)
	// for any t in [0, 1].
	Separated
	// Hit: the primitives touch; Result.Time is no later than the first
	// contact.
	Hit
	// Invalid: a coordinate is NaN or infinite, or the options are
	// invalid (see Query.Validate and Options.Validate).
	Invalid
	numStatus
)

var statusNames = [numStatus]string{"unknown", "separated", "hit", "invalid"}

// String returns "unknown", "separated", "hit" or "invalid".
func (s Status) String() string { return enumname.Of(statusNames[:], s, "Status") }

// Result is the answer to a query. The primitive listed first in the query
// is A and the other B: for vertex-face the vertex is A and the triangle B,
// for edge-edge edge A (A0, A1) is A and edge B (B0, B1) is B.
type Result struct {
	Status Status
	// Time is the time of impact in [0, 1] when Status is Hit. For the
	// Inclusion method it is never later than the true first contact.
	Time float64
	// U and V locate the contact: for vertex-face the barycentric weights
	// of B and C (the point is near (1-U-V) A + U B + V C); for edge-edge
	// the parameters along edge A and edge B.
	U, V float64
	// Point is the contact point at Time: the moving vertex for
	// vertex-face, the point of edge A at U for edge-edge.
	Point geom.Vec3
	// Normal is the unit contact normal at Time, pointing from A towards
	// B, or the zero vector where it is not defined (degenerate triangle,
	// parallel edges). For vertex-face it is the triangle's normal on the
	// side facing away from the vertex at t=0; for edge-edge the cross
	// product of the two edge directions, pointing from edge A's side to
	// edge B's at t=0. When the primitives already touch at t=0, the side
	// is taken from their relative motion over the step (B moves against
	// the normal relative to A).
	Normal geom.Vec3
	// Capped is set when the Inclusion method ran out of its box budget:
	// the hit is then not confirmed, and Time is the earliest time not
	// ruled out.
	Capped bool
	// Boxes is the number of parameter boxes the Inclusion method
	// examined (0 for Cubic).
	Boxes int
}

// Hit reports whether the result is a contact.
func (r Result) Hit() bool { return r.Status == Hit }

// Record returns the result as a contact.Contact between A and B (see
// Result): Status contact.Hit for a confirmed hit, contact.Unconfirmed for
// a Capped one, contact.Unknown for Separated and Invalid results (which
// are no contact). Separation is MinDistance's gap, 0 for exact contact;
// it is left 0. FeatureA and FeatureB are contact.NoFeature: ccd works on
// primitives, and the caller, who knows which mesh vertex, edge or face
// each primitive is, sets them.
func (r Result) Record() contact.Contact {
	c := contact.Contact{Time: r.Time, Point: r.Point, Normal: r.Normal}
	switch {
	case r.Status == Hit && r.Capped:
		c.Status = contact.Unconfirmed
	case r.Status == Hit:
		c.Status = contact.Hit
	default:
		return contact.Contact{}
	}
	return c
}

// Query is one elementary continuous collision query: four points moving
// linearly from Start (t=0) to End (t=1). The point order is that of the
// benchmark files: P, A, B, C for vertex-face; A0, A1, B0, B1 for edge-edge.
type Query struct {
	Kind       contact.PairKind
	Start, End [4]geom.Vec3
}

var vfNames = [4]string{"P", "A", "B", "C"}
var eeNames = [4]string{"A0", "A1", "B0", "B1"}

// Validate returns an error naming the first non-finite coordinate.
func (q *Query) Validate() error {
	names := &vfNames
	if q.Kind == contact.EdgeEdge {
		names = &eeNames
	} else if q.Kind != contact.VertexFace {
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
	if q.Kind != contact.VertexFace && q.Kind != contact.EdgeEdge {
		return Result{Status: Invalid} // a face-vertex query is a vertex-face query with A and B swapped
	}
	switch opt.Method {
	case Inclusion:
		return inclusion(q, opt)
	case Cubic:
		return cubic(q)
	}
	return Result{Status: Invalid}
}

// VertexFace tests point p against triangle (a, b, c), given as
// start = {p, a, b, c} at t=0 and end at t=1.
func VertexFace(start, end [4]geom.Vec3, opt Options) Result {
	q := Query{Kind: contact.VertexFace, Start: start, End: end}
	return q.Test(opt)
}

// EdgeEdge tests segment (a0, a1) against segment (b0, b1), given as
// start = {a0, a1, b0, b1} at t=0 and end at t=1.
func EdgeEdge(start, end [4]geom.Vec3, opt Options) Result {
	q := Query{Kind: contact.EdgeEdge, Start: start, End: end}
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
// parameters for edge-edge). The normal points from A (the vertex, edge A)
// towards B (the triangle, edge B).
func (q *Query) contact(r *Result, t, u, v float64) {
	r.Time, r.U, r.V = t, u, v
	p0, p1, p2, p3 := q.at(0, t), q.at(1, t), q.at(2, t), q.at(3, t)
	// ab(x) is the vector from A's contact point to B's in configuration x
	// (the corners at t=0 or t=1).
	ab := func(x *[4]geom.Vec3) geom.Vec3 {
		if q.Kind == contact.VertexFace {
			return x[1].Scale(1 - u - v).Add(x[2].Scale(u)).Add(x[3].Scale(v)).Sub(x[0])
		}
		return x[2].Lerp(x[3], v).Sub(x[0].Lerp(x[1], u))
	}
	var n geom.Vec3
	if q.Kind == contact.VertexFace {
		r.Point = p0
		n = p2.Sub(p1).Cross(p3.Sub(p1))
	} else {
		r.Point = p0.Lerp(p1, u)
		n = p1.Sub(p0).Cross(p3.Sub(p2))
	}
	nn, ok := n.Normalize()
	if !ok {
		r.Normal = geom.Vec3{}
		return
	}
	side := nn.Dot(ab(&q.Start))
	if side == 0 {
		// Touching at t=0: B's approach relative to A is against the
		// normal, so the normal is along the start-to-end decrease of ab.
		side = nn.Dot(ab(&q.Start).Sub(ab(&q.End)))
	}
	if side < 0 {
		nn = nn.Neg()
	}
	r.Normal = nn
}
