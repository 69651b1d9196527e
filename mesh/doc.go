// Package mesh holds polyhedral surfaces with full adjacency, the shared
// mesh type of every algorithm in collide.
//
// A Mesh has arbitrary polygonal faces (not only triangles) listed
// counter-clockwise seen from outside, and a winged-edge-like adjacency as
// Buss ("Collision Detection with Relative Screw Motion", Sec. 6) asks
// for: per vertex its incident
// edges in counter-clockwise order seen from outside, per edge its end
// vertices and its left and right faces, per face its boundary loop (of
// vertices and of edges) and its plane. Chung and Wang ("Quick Collision
// Detection of Polytopes in Virtual Environments", Sec. 2.3) hill climb over
// vertex neighbours, which are the other ends of a vertex's edges. The
// contact paper ("Precise Generalized Contact Point and Normal Determination
// for Rigid Body Simulation") works on polygon soups: open meshes, non-manifold
// edges and inconsistent orientation are all representable, and the mesh
// reports whether it is closed, manifold, consistently oriented and convex.
//
// All adjacency is stored in flat index slices (int32), as parry does, so a
// mesh is a handful of allocations however large it is.
//
// Data problems (NaN coordinates, coordinates so large that areas
// overflow, out-of-range indices, degenerate or non-planar faces) are
// reported by New as *Error values naming the face or vertex; the readers
// in package meshio map them to file and line. Topology that an algorithm
// may require is checked by RequireSolid (closed, consistently oriented,
// outward; a non-manifold vertex where two sheets touch is allowed) and
// RequireManifoldSolid (also no non-manifold vertex), which name the
// offending edge, faces or vertex.
//
// MassProperties gives the volume, centre of mass, inertia tensor and
// principal axes of the uniform solid a closed mesh bounds, by exact
// polyhedral volume integrals.
package mesh
