//go:build refbench

package main

/*
#cgo CXXFLAGS: -std=c++17 -O2 -I/usr/include/eigen3
#cgo LDFLAGS: -lfcl -lccd -lstdc++
#include "fcl_sample.h"
*/
import "C"

import "github.com/collide-go/collide/bench"

// fclSampleAlgo is the first contact by sampling that FCL's users and
// tests fall back on: fcl::collide (triangle-triangle tests on
// BVHModel<OBBRSS> for meshes) at the 101 poses t = k/100 of the screw
// motion (fcl::ScrewMotion), reporting the first colliding pose. It is not
// exact: a contact shorter than 1/100 of the step can be missed, and the
// time is late by up to 1/100.
type fclSampleAlgo struct {
	fclAlgo
	n int
}

func newFCLSample(w *bench.Workload) (bench.CCDAlgo, error) {
	a, err := newFCL(w)
	if err != nil {
		return nil, err
	}
	return &fclSampleAlgo{fclAlgo: *a.(*fclAlgo), n: 100}, nil
}

func (a *fclSampleAlgo) Query(q *bench.Query) (bool, float64) {
	p := queryPoses(q)
	var toc C.double
	hit := C.fcl_sample_ccd(a.shapes[q.MeshA], a.shapes[q.MeshB], &p[0], C.int(a.n), &toc)
	return hit != 0, float64(toc)
}
