//go:build refbench

// FCL's continuous collision (conservative advancement along the screw
// motion) behind a C interface for fcl.go.
#include <fcl/fcl.h>
#include <memory>
#include <vector>
#include "fcl.h"
#include "fcl_shape.hpp"

using namespace fcl;

extern "C" fcl_shape *fcl_new_shape(int kind, const double *v, int nv, const int *fv, const int *fstart, int nf) {
	auto *s = new fcl_shape;
	if (kind == FCL_BOX) {
		s->g = std::make_shared<Boxd>(v[0], v[1], v[2]);
		return s;
	}
	auto verts = std::make_shared<std::vector<Vector3d>>();
	for (int i = 0; i < nv; i++) verts->push_back(Vector3d(v[3*i], v[3*i+1], v[3*i+2]));
	if (kind == FCL_CONVEX) {
		auto faces = std::make_shared<std::vector<int>>();
		for (int f = 0; f < nf; f++) {
			faces->push_back(fstart[f+1] - fstart[f]);
			for (int k = fstart[f]; k < fstart[f+1]; k++) faces->push_back(fv[k]);
		}
		s->g = std::make_shared<Convexd>(verts, nf, faces);
		return s;
	}
	std::vector<Triangle> tris;
	for (int f = 0; f < nf; f++)
		for (int k = fstart[f] + 1; k + 1 < fstart[f+1]; k++)
			tris.push_back(Triangle(fv[fstart[f]], fv[k], fv[k+1]));
	auto m = std::make_shared<BVHModel<OBBRSSd>>();
	m->beginModel();
	m->addSubModel(*verts, tris);
	m->endModel();
	s->g = m;
	return s;
}

Transform3d tf_of(const double *p) {
	Transform3d t = Transform3d::Identity();
	t.linear() = Quaterniond(p[3], p[4], p[5], p[6]).normalized().toRotationMatrix();
	t.translation() = Vector3d(p[0], p[1], p[2]);
	return t;
}

extern "C" int fcl_ccd(const fcl_shape *a, const fcl_shape *b, const double *poses, double *toc) {
	ContinuousCollisionRequestd req(10, 0.0001, CCDM_SCREW, GST_LIBCCD, CCDC_CONSERVATIVE_ADVANCEMENT);
	ContinuousCollisionResultd res;
	continuousCollide(a->g.get(), tf_of(poses), tf_of(poses + 7), b->g.get(), tf_of(poses + 14), tf_of(poses + 21), req, res);
	*toc = res.time_of_contact;
	return res.is_collide;
}

struct fcl_tf {
	Transform3d t;
};

extern "C" fcl_tf *fcl_new_tf(const double *pose) {
	auto *t = new fcl_tf;
	t->t = tf_of(pose);
	return t;
}

extern "C" int fcl_meshdist(const fcl_shape *a, const fcl_tf *ta, const fcl_shape *b, const fcl_tf *tb, double *dist) {
	CollisionRequestd creq; // one contact, no contact details
	CollisionResultd cres;
	collide(a->g.get(), ta->t, b->g.get(), tb->t, creq, cres);
	if (cres.isCollision()) return 1;
	DistanceRequestd dreq; // no nearest points, rel_err = abs_err = 0: exact
	DistanceResultd dres;
	distance(a->g.get(), ta->t, b->g.get(), tb->t, dreq, dres);
	*dist = dres.min_distance;
	return 0;
}
