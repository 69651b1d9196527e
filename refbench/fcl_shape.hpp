// The FCL geometry behind the C handle fcl_shape, shared by fcl.cpp and
// fcl_sample.cpp.
#ifndef REFBENCH_FCL_SHAPE_HPP
#define REFBENCH_FCL_SHAPE_HPP
#include <fcl/fcl.h>
#include <memory>

struct fcl_shape {
	std::shared_ptr<fcl::CollisionGeometryd> g;
};

// tf_of converts a pose (px py pz qw qx qy qz) to FCL's transform.
fcl::Transform3d tf_of(const double *p);
#endif
