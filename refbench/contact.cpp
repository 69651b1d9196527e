//go:build refbench

// Signed distance queries of Bullet (btGjkEpaSolver2::SignedDistance),
// libccd (GJK + EPA penetration, MPR penetration) and FCL (collide with
// contacts for the depth, distance for the gap; libccd's or FCL's own GJK)
// behind a C interface for contact.go.
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <ccd/ccd.h>
#include <fcl/fcl.h>
#include <cmath>
#include <memory>
#include <vector>
#include "contact.h"
#include "ccdbody.h"

struct ct_lib {
	int lib;
	std::vector<btConvexHullShape *> bt;
	std::vector<std::shared_ptr<fcl::CollisionGeometryd>> fcl;
	std::vector<std::vector<double>> v;
	std::vector<double> cen;
};

extern "C" ct_lib *ct_new(int lib, int nm, const double *verts, const int32_t *voff, const int32_t *nv,
                          const int32_t *fv, const int32_t *fstart, const int32_t *foff, const int32_t *nf) {
	auto *l = new ct_lib;
	l->lib = lib;
	for (int m = 0; m < nm; m++) {
		const double *p = verts + 3 * voff[m];
		l->v.emplace_back(p, p + 3 * nv[m]);
		double c[3] = {0, 0, 0};
		for (int i = 0; i < nv[m]; i++)
			for (int k = 0; k < 3; k++) c[k] += p[3 * i + k] / nv[m];
		l->cen.insert(l->cen.end(), c, c + 3);
		if (lib == CT_BULLET) {
			auto *s = new btConvexHullShape(p, nv[m], 3 * sizeof(double));
			s->setMargin(0);
			l->bt.push_back(s);
		} else if (lib == CT_FCL_CCD || lib == CT_FCL_INDEP) {
			auto vs = std::make_shared<std::vector<fcl::Vector3d>>();
			for (int i = 0; i < nv[m]; i++) vs->push_back(fcl::Vector3d(p[3 * i], p[3 * i + 1], p[3 * i + 2]));
			auto faces = std::make_shared<std::vector<int>>();
			const int32_t *fs = fstart + foff[m];
			for (int f = 0; f < nf[m]; f++) {
				faces->push_back(fs[f + 1] - fs[f]);
				for (int k = fs[f]; k < fs[f + 1]; k++) faces->push_back(fv[k]);
			}
			l->fcl.push_back(std::make_shared<fcl::Convexd>(vs, nf[m], faces));
		}
	}
	return l;
}

static btTransform bt_tf(const double *t) {
	btMatrix3x3 R(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]);
	return btTransform(R, btVector3(t[9], t[10], t[11]));
}

static fcl::Transform3d fcl_tf(const double *t) {
	fcl::Transform3d x = fcl::Transform3d::Identity();
	fcl::Matrix3d R;
	R << t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8];
	x.linear() = R;
	x.translation() = fcl::Vector3d(t[9], t[10], t[11]);
	return x;
}

static void unit(ct_answer *o, double x, double y, double z) {
	double n = std::sqrt(x * x + y * y + z * z);
	if (n > 0) { o->n[0] = x / n; o->n[1] = y / n; o->n[2] = z / n; }
}

extern "C" void ct_frame(ct_lib *l, const int32_t *bm, const double *tf, const int32_t *pairs, int np, ct_answer *out) {
	ccd_t ccd;
	ccd_setup(&ccd);
	for (int k = 0; k < np; k++) {
		int a = pairs[2 * k], b = pairs[2 * k + 1], ma = bm[a], mb = bm[b];
		ct_answer *o = out + k;
		*o = ct_answer{};
		const double *ta = tf + 12 * a, *tb = tf + 12 * b;
		switch (l->lib) {
		case CT_BULLET: {
			btGjkEpaSolver2::sResults r;
			btTransform A = bt_tf(ta), B = bt_tf(tb);
			btVector3 guess = B.getOrigin() - A.getOrigin();
			btGjkEpaSolver2::SignedDistance(l->bt[ma], A, l->bt[mb], B, guess, r);
			o->has_sd = 1;
			o->sd = r.distance;
			o->hit = r.distance <= 0 && r.status != btGjkEpaSolver2::sResults::Separated;
			if (r.status == btGjkEpaSolver2::sResults::Separated) {
				btVector3 d = r.witnesses[1] - r.witnesses[0];
				unit(o, d.x(), d.y(), d.z());
			} else {
				// Bullet leaves results.normal in shape0's frame; the
				// witnesses are in the world: B's point is A's minus
				// depth times the direction B must move.
				btVector3 d = r.witnesses[0] - r.witnesses[1];
				unit(o, d.x(), d.y(), d.z());
			}
			break;
		}
		case CT_CCD_GJK_EPA:
		case CT_CCD_MPR: {
			body_t A = {l->v[ma].data(), (int)l->v[ma].size() / 3, &l->cen[3 * ma], ta};
			body_t B = {l->v[mb].data(), (int)l->v[mb].size() / 3, &l->cen[3 * mb], tb};
			ccd_real_t depth;
			ccd_vec3_t dir, pos;
			int r = l->lib == CT_CCD_MPR ? ccdMPRPenetration(&A, &B, &ccd, &depth, &dir, &pos)
			                             : ccdGJKPenetration(&A, &B, &ccd, &depth, &dir, &pos);
			if (r == 0) {
				o->hit = 1; o->has_sd = 1; o->sd = -depth;
				unit(o, dir.v[0], dir.v[1], dir.v[2]);
			}
			break;
		}
		default: {
			fcl::GJKSolverType st = l->lib == CT_FCL_CCD ? fcl::GST_LIBCCD : fcl::GST_INDEP;
			fcl::Transform3d A = fcl_tf(ta), B = fcl_tf(tb);
			fcl::CollisionRequestd req(1, true);
			req.gjk_solver_type = st;
			fcl::CollisionResultd res;
			fcl::collide(l->fcl[ma].get(), A, l->fcl[mb].get(), B, req, res);
			if (res.isCollision()) {
				const auto &c = res.getContact(0);
				o->hit = 1; o->has_sd = 1; o->sd = -c.penetration_depth;
				unit(o, c.normal.x(), c.normal.y(), c.normal.z());
			} else {
				fcl::DistanceRequestd dreq(true);
				dreq.gjk_solver_type = st;
				fcl::DistanceResultd dres;
				fcl::distance(l->fcl[ma].get(), A, l->fcl[mb].get(), B, dreq, dres);
				o->has_sd = 1; o->sd = dres.min_distance;
				fcl::Vector3d d = dres.nearest_points[1] - dres.nearest_points[0];
				unit(o, d.x(), d.y(), d.z());
			}
		}
		}
	}
}
