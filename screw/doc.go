// Package screw is continuous collision detection of two rigid polyhedra
// whose relative motion is a screw motion, after S. R. Buss, "Collision
// Detection with Relative Screw Motion" (2004).
//
// Given the start and end poses of two bodies A and B, the relative motion of
// B seen from A, Omega = Mf^-1 Nf Ni^-1 Mi (Sec. 4, eq. 1), is written as a
// screw: a rotation by Theta about an axis (point U, unit direction V) and a
// glide G along it (Sec. 4.1, Motion). Every point of B then moves on a
// helix about one axis, so the orbit of a point is identified by two numbers
// (r, h) that do not change during the motion, plus a time coordinate s that
// grows by t: the collision screen of Sec. 7. Two points can only meet when
// they project to the same (r, h), and they meet at t = s_A - s_B.
//
// The Detector follows Sec. 9: it culls the faces of B that face backwards
// and the faces of A that face forwards under the flow (Sec. 4.2), projects
// the remaining edges to the screen by divide and conquer, with doppeling of
// A across the azimuth cut and virtual edges where faces are cut (Sec. 8,
// Figs. 10 and 11), and finds the vertex-in-face overlaps both ways (step
// five) and the edge crossings (step six). With Options.PixelRows it does so
// exactly as the paper does, through per-row pixel records (r bucket, h_min,
// h_max, time range) scanned row by row; by default it finds the same pairs
// without rows (sweepscan.go): small meshes test their projected segments
// pairwise, larger ones through a uniform grid over the screen. Where the
// paper reads times off the pixels, this implementation then solves each
// candidate feature pair exactly on the analytic helix: the vertex-plane
// distance and the edge-edge coplanarity function are short trigonometric
// sums, searched left to right on the candidate's time window with local
// cubic Taylor models whose remainders are bounded rigorously (a window is
// refuted, proved monotone or halved), and their roots polished by Newton
// iteration with a proven stopping rule; so the reported times, points and
// normals are exact up to rounding and the pixel size only trades candidate
// count against projection work. Edge pairs and vertex-face pairs whose
// properness provably stays below the threshold in their window are skipped
// by Detect. Every collision carries its properness
// (Sec. 5): the minimum sine of the angle between the two surfaces; vertex-
// vertex and vertex-edge touches are resolved into vertex-face collisions by
// maximizing properness.
//
// Before projecting, the Detector culls by bounding volumes, as the paper's
// Sec. 10 suggests (cull.go, boxcull.go): a time window is cut into 16
// intervals (over one interval a point on a helix stays in the ball on the
// chord of its arc). FirstContact on meshes of 2048 faces or more in all
// descends two trees of bounding spheres,
// one per body over clusters of about a dozen faces, together over the
// intervals, so that only pairs of clusters that can meet in some interval
// reach the projection, and tests each of their faces against the other
// cluster's swept sphere; Detect tests each face (after its cluster)
// against the other body's swept bounding sphere; small meshes test the
// two bodies' bounding boxes instead. Every face, edge and vertex keeps the set of intervals in
// which it can touch the other body. Features that cannot touch are never
// transformed, projected or scanned; the intervals bound the time window
// of each candidate pair, so FirstContact solves candidates in time order
// and stops early. For large meshes FirstContact finds the earliest
// interval in which two clusters can meet (best first), and solves a short
// window from there in which B moves a few cluster radii, so its work
// follows the contact region, not the meshes. Vertex-face candidates
// whose properness cannot reach the threshold in their window are dropped
// before solving.
//
// Beyond the paper (its Sec. 10 asks for both): a conservative mode that also
// reports feature pairs that come within one pixel of each other, and a
// pixel size chosen from a requested accuracy.
//
// Also beyond the paper: rotations however small are screws (below 1e-5
// radians the screen is an orthogonal projection widened by the screw's
// deviation from the translation, and candidates are still solved on the
// exact screw); bodies that touch, overlap or lie within Options.RestMargin
// at the start poses get resting contacts at time 0 with their separation
// (rest.go), and FirstContact is then 0; meshes that are not closed and
// consistently oriented are two-sided (no facing cull, vertices enter faces
// from either side). Collision.Record and Detector.Contacts give the shared
// contact record of package contact; Prepare keeps a mesh's
// pose-independent data for callers with many bodies.
package screw
