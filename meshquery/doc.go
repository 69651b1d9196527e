// Package meshquery answers discrete queries between two triangle meshes
// at two poses, on a bounding-volume hierarchy built once per mesh: do the
// surfaces intersect (and which triangle pairs), how far apart are they
// (closest points and features), where and how deep do two closed bodies
// touch or overlap (contact records for a simulation), and is a point
// inside a closed mesh.
//
// Any triangulated surface works: closed solids, open sheets, soups with
// duplicated, non-manifold or inconsistently wound triangles. Build a Tree
// per mesh (New for a mesh.Mesh, NewSoup for raw triangles); run queries
// through a Scratch, which owns the scratch space so that warm queries
// allocate nothing:
//
//	ta, tb := poseA.Transform(), poseB.Transform()
//	var q meshquery.Scratch
//	hit, err := q.Intersect(treeA, &ta, treeB, &tb)
//	res, err := q.Distance(treeA, &ta, treeB, &tb, nil)
//	cs, err := q.Contacts(treeA, &ta, treeB, &tb, &meshquery.ContactOptions{Margin: 0.01}, nil)
//
// Guarantees: Intersect's triangle test is exact (Guigue and Devillers'
// orientation-predicate test on robust.Orient3D) for B's vertices taken to
// A's frame in floating point, and the box culling is padded so that it
// never discards a pair that test would find; Distance is the exact
// minimum, up to rounding of the feature distances, over all triangle
// pairs; Locate decides inside, outside or on the surface exactly.
package meshquery
