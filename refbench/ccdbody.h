// A convex body for libccd's callbacks, shared by mpr.go and contact.cpp:
// its local vertices (x, y, z triples), its centroid and its transform
// (row-major rotation, then translation).
#ifndef REFBENCH_CCDBODY_H
#define REFBENCH_CCDBODY_H

#include <ccd/ccd.h>

typedef struct { const double *v; int nv; const double *c; const double *tf; } body_t;

// support is libccd's support callback: the body's vertex farthest along d
// (brute force over the vertices), in world coordinates.
static void support(const void *o, const ccd_vec3_t *d, ccd_vec3_t *out) {
	const body_t *b = (const body_t *)o;
	const double *R = b->tf, *dd = d->v;
	double lx = R[0] * dd[0] + R[3] * dd[1] + R[6] * dd[2];
	double ly = R[1] * dd[0] + R[4] * dd[1] + R[7] * dd[2];
	double lz = R[2] * dd[0] + R[5] * dd[1] + R[8] * dd[2];
	int best = 0;
	double bd = lx * b->v[0] + ly * b->v[1] + lz * b->v[2];
	for (int i = 1; i < b->nv; i++) {
		double s = lx * b->v[3 * i] + ly * b->v[3 * i + 1] + lz * b->v[3 * i + 2];
		if (s > bd) { bd = s; best = i; }
	}
	const double *p = b->v + 3 * best;
	for (int k = 0; k < 3; k++)
		out->v[k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2] + b->tf[9 + k];
}

// center is libccd's centre callback: the body's centroid in world
// coordinates.
static void center(const void *o, ccd_vec3_t *out) {
	const body_t *b = (const body_t *)o;
	const double *R = b->tf, *p = b->c;
	for (int k = 0; k < 3; k++)
		out->v[k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2] + b->tf[9 + k];
}

// ccd_setup initialises libccd's parameters for two body_t (the settings
// of every libccd query here: 100 iterations at most).
static void ccd_setup(ccd_t *ccd) {
	CCD_INIT(ccd);
	ccd->support1 = support; ccd->support2 = support;
	ccd->center1 = center; ccd->center2 = center;
	ccd->max_iterations = 100;
}

#endif
