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
//     toc);
//   - for a simulator, FeatureContacts: the vertex-face and edge-edge
//     corners of the contact region of two closed polyhedra at the start
//     poses, speculative within what the step's motion can close plus each
//     body's own margin (SetMargin); bodies marked asleep (SetAsleep) are
//     tested only against awake moving ones.
//
// Which narrow phase runs for which pair of kinds is a Table that can be
// changed. For continuous methods the broad phase is fed swept boxes
// (broad.SweptScrew, broad.SweptLinear) so that a body passing through
// another within a step is not culled.
//
// Every contact is a record of package contact, passed through as the
// narrow phase made it: status (hit, touching, penetrating, near,
// unconfirmed), time in [0, 1] of the step, world point at that time, unit
// normal from A to B, signed separation, the features of each body and
// Buss's properness where the method defines it. A pair may give several
// contacts. All continuous methods answer on one motion model per world
// (Options.Motion), so a contact's time means the same trajectory
// whichever method found it.
//
// Scene queries run on the bodies at their current poses: RayCast and
// RayCastAll (point, normal, body and face), QueryBox (bodies whose boxes
// overlap a box) and ClosestBody (the nearest surface, and whether the
// point is inside a closed body).
//
// The pair work runs in parallel on all cores; the contacts come out sorted
// by body ids, the same whatever the scheduling. Bodies may be static
// (never moved, never tested against each other) and carry Box2D-style
// collision filters (category and mask bits, and groups). A body's
// prepared geometry is built when it is added and released with the last
// body of its mesh; a mesh must not change while a body uses it.
package world
