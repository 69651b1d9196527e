// Package world runs collision detection for a scene of rigid bodies: the
// user adds bodies (a mesh, a shape kind, a pose), moves them, and asks for
// the contacts of each step; the world runs the broad phase (package broad,
// sweep and prune after I-COLLIDE as in Chung and Wang, VRST 1996, Sec. 1)
// and then, for every candidate pair, the narrow phase that fits the two
// bodies' kinds:
//
//   - convex polytopes: the separating-vector search of Chung and Wang
//     (package convex) at the end poses, with its per-pair cache carried
//     from step to step (temporal coherence, their Sec. 2.2 and 6), or GJK;
//   - closed polyhedra, convex or not, moving between two poses: continuous
//     detection under relative screw motion (package screw, Buss 2004);
//   - triangle soups: time of contact along bounded trajectories (package
//     toc), or elementary vertex-face and edge-edge continuous tests with
//     linearly moving vertices (package ccd, Jansen).
//
// Which narrow phase runs for which pair of kinds is a Table that can be
// changed. For continuous methods the broad phase is fed swept boxes
// (broad.SweptScrew, broad.SweptLinear) so that a body passing through
// another within a step is not culled.
//
// The pair work runs in parallel on all cores; the contacts come out sorted
// by body ids, the same whatever the scheduling. Bodies may be static
// (never moved, never tested against each other) and carry Box2D-style
// collision filters (category and mask bits, and groups).
package world
