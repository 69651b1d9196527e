// Package convex decides whether two convex polytopes intersect, the way
// Chung and Wang do it ("Quick Collision Detection of Polytopes in Virtual
// Environments", VRST 1996), beside a GJK baseline that also gives distance
// and closest points; it computes their exact signed distance (distance or
// penetration depth, SignedDistance) and contact manifolds (Manifold).
//
// A Polytope is built once per shape (New from a closed convex mesh.Mesh,
// FromPoints from a point set through package hull). It holds the vertices
// with flat neighbour lists for supporting-vertex hill climbing (Sec. 2.3),
// the precomputed table of supporting vertices for 8 x 16 directions
// (Sec. 2.4) and, built at its first use, a Dobkin-Kirkpatrick hierarchy
// for O(log n) supporting vertices from scratch (Sec. 5). Queries never
// transform vertices: the
// search direction is turned into each body's local frame (Sec. 2.3).
//
// Searcher.Intersect is the separating-vector search: the direction S is
// reflected about r = (q-p)/|q-p| (Sec. 2.2, eq. 2) until the supporting
// vertices p of A along S and q of B along -S satisfy S.(q-p) > 0 (Lemma 1),
// or until the points r_0..r_i on the unit sphere admit no plane through the
// origin with all of them on one side (the collision condition of Sec.
// 4.2). A repeated pair of supporting vertices restarts the search from the
// current plane normal w (Lemma 4, Sec. 4.3). A Cache carries the last
// separating vector and supporting vertices of a pair to the next frame, so
// that in a moving scene most tests end after one step (temporal coherence,
// Sec. 2.2 and 6).
//
// Beyond the paper: for an intersecting pair the cache also keeps the four
// supporting-vertex pairs whose differences enclosed the origin, checked
// first on the next call (Result.Witness); when the origin has left that
// tetrahedron the search resumes beyond the face it left through. After a
// reflection that turns S by more than about 16 degrees, hill climbing
// restarts from the direction table.
//
// Supporting vertices by scanning. On amd64 processors with AVX2, a
// polytope of at most 160 vertices keeps its vertices as three arrays of
// coordinates and Intersect finds a supporting vertex by scanning all of
// them four at a time (soa_amd64.s) instead of hill climbing: the same
// exact maximum (the same products and sums as Polytope.SupportBrute),
// found in about half the time of a climb for 100 vertices, whose steps
// are unpredictable branches and scattered loads. Larger polytopes, and
// all polytopes on other processors (or with the purego build tag), use
// the table and hill climbing of Sec. 2.3-2.4. The search itself (eq. 2,
// Sec. 4.2, Lemmas 3 and 4) is the same either way.
//
// Posed bodies. For small polytopes that take part in several tests per
// frame, Posed.Set transforms the vertices to world coordinates once per
// frame and Searcher.IntersectPosed runs the same search on them: a
// supporting vertex is then a scan of at most 16 world vertices (one
// AVX2 kernel for both bodies, or a branch-free scalar loop), and neither
// directions nor differences q - p need rotating.
// When it resumes beyond a face of the cached tetrahedron, the face's three
// points and the new one are first checked for enclosing the origin (the
// same strict test as the cached tetrahedron's), and hill climbing on a
// large posed body starts from the best of the table vertex and the face's
// vertices.
// IntersectStatus and IntersectPosedStatus return only the status, which
// spares a scene's innermost loop the copy of a Result.
//
// Exactness. "Separated" is only reported with a witness: the plane
// Result.Plane, checked by the support-function inequality of Lemma 1 (with
// a strict > so touching counts as intersecting). "Intersecting" is only
// reported when the collision condition holds with an angular margin that
// rounding cannot produce, or, when the search cannot decide (iteration
// limit, degenerate repeats, nearly touching bodies), by GJK: then the
// bodies are either proven separated by a witness plane or their distance is
// below Options.Tol. The tests compare both against an independent
// separating-axis oracle on thousands of random pairs.
//
// GJK (Gilbert, Johnson and Keerthi, the paper's reference [15]) runs on the
// same polytopes with the same hill-climbing support; GJKCache is its
// optional warm start.
//
// Signed distance and contacts. Searcher.SignedDistance returns the
// distance and closest points of separated polytopes (GJK to a relative
// precision of 1e-13, the closest points recomputed from the final
// simplex's features) and the penetration depth and direction of
// overlapping ones: the expanding polytope algorithm (van den Bergen,
// "Proximity Queries and Penetration Depth Computation on 3D Game
// Objects", GDC 2001) bounds the depth from below by its nearest face and
// from above by the support value along that face's normal; the face's
// supporting vertices name a facet of the Minkowski difference A - B (a
// face of A, a face of B or an edge of each), whose normal is taken from the
// meshes, so the depth and direction are exact up to rounding (Distance.Exact
// reports the certificate). Searcher.Manifold turns it into up to four
// contact points by clipping the incident face with the reference face
// (Catto's Box2D, Coumans's Bullet), with feature ids that stay the same
// while the same features touch, and speculative contacts within a margin.
// A DistanceCache per pair carries the last simplex, so a coherent scene
// starts each query where the last one ended. Searcher.SignedDistances
// answers a frame's pairs (PairQuery: two body indices, a cache, the
// answer) in one call, each body's transform checked once, with the same
// answers as one SignedDistance call per pair.
package convex
