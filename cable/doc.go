// Package cable simulates cables -- chains of point masses joined by
// springs -- that collide with each other and with static edges and
// triangles, with every edge-edge and vertex-face contact of a time step
// found by continuous collision detection (package ccd) and resolved by
// impulses: the cable class of Jansen, "Continuous Collision Detection in
// 3-D", Sec. 3.7, with the impulse response of Sec. 3.5 (eqs. 28-29). The
// paper's basketball-hoop test (Sec. 4: a net and cable system of over 500
// edges, about 0.25 frames per second in the paper) runs on it in
// "collide scene hoop".
//
// # A time step
//
// Step advances the system by Options.Dt in substeps short enough for the
// springs to be stable (System.Substeps: the step h obeys h (w + g) <= 1
// for a bound w on the highest angular frequency and g on the damping
// rate, from Gershgorin's theorem on the mass-normalised stiffness and
// damping matrices; a spring that would need more than
// Options.MaxSubsteps substeps is refused when it is added). Each substep
// is semi-implicit (symplectic) Euler: velocities first receive gravity,
// spring and damping forces, then
// every particle would move linearly from x to x + dt v -- exactly the
// linear motion of Jansen's eq. (1) that ccd tests. Collision processing
// then changes only velocities:
//
//  1. Broad phase: swept boxes of the moving edges and vertices, widened by
//     the thickness d (Options.Thickness), in a uniform grid (static edges
//     and triangles live in a second grid built once).
//  2. Every candidate pair (edge-edge, vertex-triangle) is tested with ccd
//     at MinDistance d (or, when it is closer than d already at the start
//     of the step, takes its contact frame from the closest points at
//     t=0). A contact whose relative normal velocity (eq. 28) is below a
//     small separation speed receives the impulse of eq. 29 (via
//     ccd.Impulse, with the restitution raised so that the pair separates
//     at that speed; optional Coulomb friction). A contact that already
//     separates is tested again with ccd at zero distance: only a real
//     contact within the step needs more.
//  3. Pairs with a particle whose velocity changed are tested again, up to
//     Options.MaxIterations rounds (Jansen's k).
//  4. Fail-safe: if contacts remain, every pair that still touches within
//     the step (ccd at zero distance) has its particles frozen for this
//     step (velocity zero), repeated until no contact is left. A frozen
//     pair cannot cross: nothing of it moves. This is a simple form of the
//     "rigid impact zones" of Bridson, Fedkiw and Anderson (2002), cited by
//     Jansen.
//
// Then x += dt v. Because ccd's default method never misses a contact,
// no edge passes through another and no vertex through a triangle.
//
// # The independent check
//
// Verify (and Options.Verify, which runs it after every step) tests the
// step's motion without package ccd: for every pair of edges whose swept
// boxes overlap, the exact sign of the orientation determinant of the four
// endpoints (robust.Orient3D) at the start, end, three interior times and
// the extrema of the orientation cubic;
// at each sign change the coplanarity time is bracketed by bisection and
// the distance between the segments there decides whether they crossed.
// Moving vertices against static triangles use the same sign test (the
// orientation is linear in t), and at the end of the step every edge is
// tested exactly for intersection with every static triangle.
//
// Edges that share a particle (neighbours along a cable) are not tested
// against each other (Jansen, Sec. 3.6).
package cable
