// Package ccd is elementary continuous collision detection: a point against
// a triangle (vertex-face) and a segment against a segment (edge-edge),
// every vertex moving linearly from t=0 to t=1. It answers whether the two
// primitives touch (or come within a distance d) for some t in [0, 1], and
// if so gives a time of impact that is never later than the first contact,
// with the contact point and normal. The primitive listed first is A (the
// vertex, or edge A), the other B (the triangle, or edge B); the normal
// points from A to B, and Result.Record gives the shared contact record.
//
// It follows Jansen, "Continuous Collision Detection in 3-D" (Sec. 3):
// four points are coplanar at the roots of a cubic in t (Sec. 3.1), solved
// in closed form with complex cube roots (Sec. 3.2-3.3), and at each root
// the primitives must actually intersect (Sec. 3.4); Impulse is the collision response of Sec. 3.5 (eqs. 28-29).
// That method is available as Method Cubic, as written, in float64. It is
// fast, and it misses contacts: in coplanar or parallel motion the cubic
// vanishes identically, grazing roots are double roots that rounding turns
// complex, and contacts at t=0 or t=1 or on an edge fall on either side of
// the tests by rounding.
//
// # The default method: Inclusion
//
// The default method never misses a contact of the given float64 inputs.
// It is an inclusion-based root finder in the spirit of Wang, Ferguson,
// Schneider, Jiang, Attene and Panozzo, "A Large Scale Benchmark and an
// Inclusion-Based Algorithm for Continuous Collision Detection" (ACM TOG
// 2021), with its own error bounds, a second double-word filter and
// direction filters. Contact is a zero of
//
//	vertex-face: F(t,u,v) = P(t) - [(1-u-w) A(t) + u B(t) + w C(t)], w = v(1-u)
//	edge-edge:   F(t,u,v) = (1-u) A0(t) + u A1(t) - (1-v) B0(t) - v B1(t)
//
// on the box [0,1]^3 (for vertex-face, v is reparametrised so that the unit
// square maps onto the whole closed triangle). Each coordinate of F is
// multilinear in (t, u, v): of degree at most one in each parameter. F on a
// sub-box is therefore the trilinear interpolation of its 8 corner values,
// a convex combination of them, and its range on the box lies between the
// smallest and largest corner value. The search bisects boxes, earliest
// start time first (in quanta of 2^-20, depth first within a quantum, from
// a pooled heap: no allocation per query), and drops a box only when
//
//  1. on some axis k all 8 computed corner values exceed eps_k + d, or are
//     all below -(eps_k + d), where eps_k bounds the rounding error of a
//     computed corner value (below); then |F| >= |F_k| > d on the whole box;
//  2. the same holds for n.F along a fixed direction n (the face normal, or
//     the edges' cross product, at t=0 and at t=1), with the error bound of
//     n.F and threshold |n| d; this removes the flat "sliding" near-misses
//     that axis-aligned bounds cannot separate;
//  3. the same holds for corner values computed in double-word arithmetic
//     (exact differences, Joldes-Muller-Popescu error bounds), whose error
//     is 512 u^2 M_k instead of 50 u M_k; this separates near-misses down to
//     about 1e-29 relative, which the rounded-input data sets are full of;
//  4. it cannot hold a contact earlier than one already found: its start
//     time is not earlier than the current time of impact.
//
// Contacts are recognised in two ways. A box whose image lies within a
// small band around zero (the rounding bound plus DefaultRelTolerance
// times the coordinate scale) is a contact if the double-word filter
// cannot refute it within a few sub-boxes; as every box left starts in the
// same time quantum or later, the start of that quantum is reported. And a
// Newton iteration (in barycentric coordinates, float64) that converges to
// a well-conditioned root inside a box -- or on the domain's boundary,
// confirmed there by the double-word filter -- marks a contact at the
// root's time minus 1e-6; the earlier part of the box and every other box
// starting earlier are still searched. Neither can cause a missed contact
// or a late time of impact: only dropping a box can, and every drop is one
// of 1-4. If the box budget (Options.MaxBoxes) runs out, the query reports
// a hit (Result.Capped) at the earliest start time of the boxes left.
// Hence: whenever the primitives touch at a first time t*, the box holding
// (t*, u*, v*) is never dropped, and the reported Time is at most t*.
//
// # The rounding error bound
//
// Let u = 2^-53 and M_k the largest magnitude of the 8 input coordinates on
// axis k (after an exact power-of-two rescaling when M is above 2^400 or
// below 2^-400, so nothing overflows or approaches underflow). The
// evaluation is: differences of two inputs (error <= 2uM, magnitude <= 2M);
// linear interpolation in t as fl(fl((1-t) x0) + fl(t x1)) (error <= 8uM);
// the products with u and v(1-u) (<= 10uM and 14uM); two additions (22uM,
// then 42uM). Second-order terms are covered by rounding 42 up to 50;
// underflow adds at most 2^-1075 per operation, covered by an absolute
// 2^-1000. Along a direction n the same steps, starting from dot products
// of error 8u sum_k |n_k| M_k, give 60u sum_k |n_k| M_k, used as 64. The
// double-word evaluation starts from exact differences (TwoSum) and uses
// DWTimesFP (relative error 1.5u^2), DWTimesDW (7u^2) and AccurateDWPlusDW
// (3u^2) on magnitudes of at most 2M, 4M and 6M: 119 u^2 M in total, used
// as 512 u^2 M. The thresholds are rounded upward. Go may fuse a multiply and an add into
// one FMA; that removes a rounding and only tightens these bounds.
//
// The benchmark files of Wang et al. give coordinates as rationals; all of
// them are exactly representable in float64, so the guarantee holds for
// the files' exact ground truth. For inputs that are themselves rounded,
// the guarantee is for the rounded values.
//
// # Minimum separation
//
// Options.MinDistance d reports contact when the primitives come within d.
// The filters test |F_k| > d per axis, so the Inclusion method may also
// report configurations up to d sqrt(3) apart, and never misses one within
// d. Cubic ignores d.
package ccd
