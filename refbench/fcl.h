// C interface of fcl.cpp.
#ifndef REFBENCH_FCL_H
#define REFBENCH_FCL_H
#ifdef __cplusplus
extern "C" {
#endif
enum { FCL_BOX, FCL_CONVEX, FCL_MESH };
typedef struct fcl_shape fcl_shape;
// fcl_new_shape makes a box (v = its three side lengths), a convex
// polytope or a triangle-mesh BVH (faces fan-triangulated) from vertices
// (x y z triples) and faces (fv[fstart[f]:fstart[f+1]]).
fcl_shape *fcl_new_shape(int kind, const double *v, int nv, const int *fv, const int *fstart, int nf);
// fcl_ccd runs conservative advancement along the screw motions of poses
// (a0, a1, b0, b1; px py pz qw qx qy qz each); it returns 1 on contact and
// sets *toc.
int fcl_ccd(const fcl_shape *a, const fcl_shape *b, const double *poses, double *toc);
typedef struct fcl_tf fcl_tf;
// fcl_new_tf converts a pose (px py pz qw qx qy qz) to FCL's transform.
fcl_tf *fcl_new_tf(const double *pose);
// fcl_meshdist runs FCL's collide on two shapes at two transforms and,
// without a collision, its distance (exact: rel_err = abs_err = 0); it
// returns 1 on collision, else 0 with *dist set.
int fcl_meshdist(const fcl_shape *a, const fcl_tf *ta, const fcl_shape *b, const fcl_tf *tb, double *dist);
#ifdef __cplusplus
}
#endif
#endif
