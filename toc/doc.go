// Package toc finds the first time of contact, contact point and contact
// normal of two rigid bodies of any triangulated geometry, convex or not,
// closed or a polygon soup, moving over a step, after "Precise Generalized
// Contact Point and Normal Determination for Rigid Body Simulation"
// (Algorithms 1-3, Sec. 3).
//
// # Motion
//
// A body turns at a constant angular velocity about a reference point that
// moves at a constant velocity (State). With the reference point at the
// body's origin this is constant linear and angular velocity
// (geom.LinearAngular); with it on the screw axis it is the screw motion
// (geom.ScrewMotion, Buss, "Collision Detection with Relative Screw
// Motion", Sec. 4). Scratch.Contacts takes States and a step length;
// Scratch.Between takes start and end poses and answers on the model chosen
// by Options.Motion (StateOf builds the state of either model).
//
// # Method
//
// Every sample point of each body (its vertices by default) follows a
// curved trajectory in the frame of the other body (Sec. 3.1-3.2,
// Relative). Its deviation from the chord between two instants is bounded
// by nu = L (tb - ta) - |p(tb) - p(ta)| for a speed bound L, which gives an
// oriented box around the trajectory piece (TrajectoryOBB). Algorithm 2
// (Boxes) bisects the step in time where such a box meets the other body's
// triangles and reports the earliest final box's time; it misses no
// contact of a sample point. Algorithm 3 (Segments) bisects until the
// chords are within the tolerance and tests chords against triangles
// (geom.SegmentTriangle); it may miss contacts shallower than the
// tolerance. Algorithm 1 (Scratch.Contacts) runs either over both bodies'
// sample points.
//
// Sample points alone find an edge of one body crossing an edge of the
// other only when a vertex finally touches, late. The edge phase closes
// that gap: the edges of the smaller body are followed like points (an
// edge of a rigid body is the segment between its ends at every instant,
// so a piece of its motion lies in the hull of its ends' boxes), pieces
// whose box meets the other body's edges (a BVH of edges) are bisected
// until both ends are within the tolerance of their chords, and a final
// piece is tested with the conservative elementary edge-edge test of
// package ccd on the chords, widened by the deviation. Options.PointsOnly
// turns it off.
//
// Two corrections to the paper are made and tested: the box across the
// chord must have half width sqrt(nu (2 d + nu)) / 2 (d the chord length),
// not nu/2 (a quarter circle bulges 0.293 from its chord with nu = 0.157);
// and a point's speed is not constant over a step unless its velocity is
// along the spin axis, so L is the smaller of two rigorous bounds, one
// from the speeds at both ends and a Lipschitz constant of the speed
// (Relative.Lipschitz, SpeedBound), one from the translational part at the
// ends, split along the relative spin axis and across it, and the
// rotational part, which is perpendicular to that axis
// (Relative.SpeedBoundGlobal, exact for a point turning about a fixed axis
// and for a screw motion against a static body), rather than the speed at
// the start.
//
// # Results
//
// Contacts follow package contact: Time is a fraction of the step, the
// normal points from A to B, features are in the meshes' numbering, and
// Contact.Record gives the shared record. Bodies whose surfaces meet at
// time 0 get a contact at time 0 (Touching, or Penetrating when they
// cross by more than the tolerance). The broad phase of Sec. 3.5 is EnlargedOBB, with SweptOBB as a
// tighter alternative for fast bodies. Queries allocate nothing once a
// Scratch's scratch space has grown.
package toc
