// Package geom is the geometry kernel shared by every algorithm in collide:
// 3-vectors, 3x3 matrices, unit quaternions, rigid poses and transforms,
// axis-aligned and oriented bounding boxes, and planes.
//
// All types are small value types; arithmetic never allocates. Methods
// follow golang/geo's r3 style: v.Sub(w).Dot(n). Operations that can fail
// numerically (normalising a zero vector, inverting a singular matrix)
// return a second ok value instead of a silent NaN.
//
// Conventions (the same as the collide benchmark format's): quaternions are
// Hamilton, scalar first (W, X, Y, Z); a pose maps a local point x to
// R(q) x + p; matrices are row-major and act on column vectors.
package geom
