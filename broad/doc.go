// Package broad is the broad phase of collide: given one axis-aligned box
// per body, it finds every pair of bodies whose boxes overlap, so that the
// exact (narrow-phase) tests only run on those pairs.
//
// Four structures implement the same [Phase] interface:
//
//   - [SAP], sweep and prune after I-COLLIDE (Cohen, Lin, Manocha and
//     Ponamgi 1995), the bounding-box pass that Chung and Wang assume in
//     Sec. 1 of "Quick Collision Detection of Polytopes in Virtual
//     Environments" (VRST 1996): the box endpoints are kept sorted on the
//     x, y and z axes; between frames the nearly sorted lists are repaired
//     by insertion sort, and each swap of a lower with an upper endpoint is
//     an event at which a pair may start or stop overlapping. The overlap
//     set is kept up to date from these events, so a frame costs
//     O(n + swaps) (expected O(n + e) under temporal coherence) and never
//     re-tests pairs that did not move relative to each other.
//   - [Sweep], sweep and prune along one axis (sort and sweep) run inside
//     the cells of a coarse grid on the two other axes, with the sort kept
//     by insertion sort from frame to frame: it lists all pairs afresh
//     each frame in O(n + swaps + pairs tested), and is the fastest here
//     for scenes of many moving bodies.
//   - [Tree], a dynamic bounding-volume tree with fat boxes (after Box2D's
//     b2DynamicTree): insert, remove, move, box queries and all-pairs
//     queries, for scenes with little coherence or many static bodies.
//   - [Brute], the O(n²) oracle.
//
// All four report exactly the same set: the pairs a < b whose closed boxes
// intersect on all three axes (lo_a <= hi_b and lo_b <= hi_a per axis, so
// touching boxes overlap). Boxes must be finite with Min <= Max on every
// axis; Set returns an error naming the id otherwise.
//
// Bodies are named by small non-negative integer ids chosen by the caller
// (slice indices, typically); memory grows with the largest id used.
//
// The file swept.go bounds a body over a whole time step — linear
// (translation with uniform rotation about the body origin) and screw
// motion (FORMAT.md Sec. 6, Buss 2004) — so that continuous collision
// detection is not culled by boxes taken at the end poses only.
package broad
