// Package toc finds the first time of contact, contact point and contact
// normal of two rigid bodies of any triangulated geometry, convex or not,
// closed or a polygon soup, moving with constant linear and angular
// velocity over a step: "Precise Generalized Contact Point and Normal
// Determination for Rigid Body Simulation" (../shared/papers/004).
//
// Every sample point of each body (its vertices by default) follows a
// curved trajectory in the frame of the other body (Sec. 3.1-3.2,
// Relative). Its deviation from the chord between two instants is bounded
// by nu = L (tb - ta) - |p(tb) - p(ta)| for a speed bound L, which gives an
// oriented box around the trajectory piece (TrajectoryOBB). Algorithm 2
// (Boxes) bisects the step in time where such a box meets the other body's
// triangles and reports the earliest final box's time; it misses no
// contact. Algorithm 3 (Segments) bisects until the chords are within the
// tolerance and tests chords against triangles; it is faster and may miss
// contacts shallower than the tolerance. Algorithm 1 (Query.Contacts) runs
// either over both bodies' sample points and returns the first contact, or
// all contacts within a tolerance of the first. Each body's triangles are
// held in a Soup with a bounding-volume hierarchy (exact-sign segment
// tests, separating-axis box tests). The broad phase of Sec. 3.5 is
// EnlargedOBB, with SweptOBB as a tighter alternative, and BroadPhase
// for many bodies.
//
// Two corrections to the paper are made and tested: the box across the
// chord must have half width sqrt(nu (2 d + nu)) / 2 (d the chord length),
// not nu/2 (a quarter circle bulges 0.293 from its chord with nu = 0.157);
// and a point's speed is not constant over a step unless its velocity is
// along the spin axis, so L is the smaller of two rigorous bounds, one
// from the speeds at both ends and a Lipschitz constant of the speed
// (Relative.Lipschitz, SpeedBound), one from the translational part at the
// ends plus the rotational part (Relative.SpeedBoundGlobal, exact for a
// point turning about a fixed axis), rather than the speed at the start.
//
// Queries allocate nothing once a Query's scratch space has grown.
package toc
