//go:build refbench

// FCL's first contact by sampling: fcl::collide at evenly spaced poses of
// the screw motion, as FCL's own tests do to check continuous collision.
#include <fcl/fcl.h>
#include "fcl_sample.h"
#include "fcl_shape.hpp"

using namespace fcl;

extern "C" int fcl_sample_ccd(const fcl_shape *a, const fcl_shape *b, const double *poses, int n, double *toc) {
	ScrewMotion<double> ma(tf_of(poses), tf_of(poses + 7));
	ScrewMotion<double> mb(tf_of(poses + 14), tf_of(poses + 21));
	Transform3d ta, tb;
	CollisionRequestd req; // one contact, no contact details
	for (int k = 0; k <= n; k++) {
		double t = double(k) / n;
		ma.integrate(t);
		mb.integrate(t);
		ma.getCurrentTransform(ta);
		mb.getCurrentTransform(tb);
		CollisionResultd res;
		collide(a->g.get(), ta, b->g.get(), tb, req, res);
		if (res.isCollision()) {
			*toc = t;
			return 1;
		}
	}
	return 0;
}
