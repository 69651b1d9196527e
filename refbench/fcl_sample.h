// C interface of fcl_sample.cpp.
#ifndef REFBENCH_FCL_SAMPLE_H
#define REFBENCH_FCL_SAMPLE_H
#include "fcl.h"
#ifdef __cplusplus
extern "C" {
#endif
// fcl_sample_ccd runs FCL's discrete collide at the n + 1 poses t = k/n,
// k = 0..n, of the screw motions of poses (a0, a1, b0, b1; px py pz qw qx
// qy qz each; fcl::ScrewMotion) and returns 1 with *toc = k/n at the first
// colliding pose, else 0.
int fcl_sample_ccd(const fcl_shape *a, const fcl_shape *b, const double *poses, int n, double *toc);
#ifdef __cplusplus
}
#endif
#endif
