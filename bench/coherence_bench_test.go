package bench

import (
	"math"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// satCandidate is one candidate axis of the separating-axis test of a
// pair (a face normal of either body or the cross product of an edge of
// each), with its support value h of the Minkowski difference A - B and
// the coefficient rho of the bound on how much h can change when B turns
// by theta and moves by dt relative to A: |dh| <= dt + theta rho.
type satCandidate struct {
	h, rho float64
}

// satCandidates lists every candidate axis of the pair (A in its own
// frame, B placed in it by tr) by brute force: the depth of an overlapping
// pair is the smallest h. Edge pairs are not restricted to the Minkowski
// faces: every direction's support value bounds the depth from above.
func satCandidates(ma, mb *mesh.Mesh, tr geom.Transform, bw []geom.Vec3, out []satCandidate) []satCandidate {
	out = out[:0]
	for i, y := range mb.Verts {
		bw[i] = tr.Apply(y)
	}
	rA, rB := 0.0, 0.0
	for _, x := range ma.Verts {
		rA = max(rA, x.Norm())
	}
	for _, y := range mb.Verts {
		rB = max(rB, y.Norm())
	}
	h := func(n geom.Vec3) float64 {
		ha, lb := math.Inf(-1), math.Inf(1)
		for _, x := range ma.Verts {
			ha = max(ha, n.Dot(x))
		}
		for _, y := range bw[:len(mb.Verts)] {
			lb = min(lb, n.Dot(y))
		}
		return ha - lb
	}
	for _, p := range ma.Planes {
		out = append(out, satCandidate{h(p.N), rB})
	}
	for _, p := range mb.Planes {
		out = append(out, satCandidate{h(tr.R.MulVec(p.N).Neg()), rA})
	}
	// An edge-pair axis c = ea x R eb turns with B: |dc| <= 2 theta
	// |ea| |eb| / |ea x eb|, and |dh| <= |dc| max |x| over A - B.
	rM := rA + rB + tr.T.Norm()
	for _, ea := range ma.Edges {
		da := ma.Verts[ea.V[1]].Sub(ma.Verts[ea.V[0]])
		for _, eb := range mb.Edges {
			db := tr.R.MulVec(mb.Verts[eb.V[1]].Sub(mb.Verts[eb.V[0]]))
			c := da.Cross(db)
			l := c.Norm()
			if l <= 1e-12*da.Norm()*db.Norm() {
				continue
			}
			c = c.Scale(1 / l)
			dc := 2 * da.Norm() * db.Norm() / l
			out = append(out, satCandidate{min(h(c), h(c.Neg())), rB + dc*rM})
		}
	}
	return out
}

// BenchmarkCoherenceMargin measures, on the frames workload named by
// $COLLIDE_BENCH_WORKLOAD (see benchWorkload), how many overlapping pairs
// of one frame that are tested again in the next could be answered there
// by a motion-bound certificate: the smallest candidate axis of the
// separating-axis test stays the smallest while every other candidate's
// support value exceeded it by more than both values can change under the
// relative motion between the frames. It reports the share certified, the
// share whose smallest axis is indeed the same in the next frame, and the
// medians (relative to the mean body radius) of the gap to the runner-up,
// of the motion bound and of the actual change of the depth's candidate.
// Brute force over all candidates (no code shared with package convex);
// one pass whatever b.N.
func BenchmarkCoherenceMargin(b *testing.B) {
	w, _, _ := benchWorkload(b, "signed-distance")
	fd := prepareFrames(w)
	rsum := 0.0
	for _, m := range w.Meshes {
		rsum += m.Radius()
	}
	rmean := rsum / float64(len(w.Meshes))
	var c0, c1 []satCandidate
	var bw []geom.Vec3
	var gaps, bounds, moves []float64
	nOver, nCert, nSame := 0, 0, 0
	for f := 1; f < w.Frames; f++ {
		prev := make(map[Pair]bool, len(fd.pairs[f-1]))
		for _, p := range fd.pairs[f-1] {
			prev[p] = true
		}
		for _, p := range fd.pairs[f] {
			if !prev[p] {
				continue
			}
			ma, mb := w.Meshes[w.BodyMesh[p.A]], w.Meshes[w.BodyMesh[p.B]]
			if len(bw) < len(mb.Verts) {
				bw = make([]geom.Vec3, len(mb.Verts))
			}
			t0 := fd.tf[f-1][p.A].Inverse().Mul(fd.tf[f-1][p.B])
			t1 := fd.tf[f][p.A].Inverse().Mul(fd.tf[f][p.B])
			c0 = satCandidates(ma, mb, t0, bw, c0)
			k0 := argminH(c0)
			if c0[k0].h <= 0 {
				continue // apart in the earlier frame
			}
			nOver++
			c1 = satCandidates(ma, mb, t1, bw, c1)
			if len(c1) == len(c0) && argminH(c1) == k0 {
				nSame++
			}
			// B's motion relative to A: the change of its origin (and of
			// A's origin seen from B: dt + theta |t|) and the angle.
			_, theta := t1.R.Mul(t0.R.Transpose()).AxisAngle()
			dt := t1.T.Sub(t0.T).Norm() + theta*t0.T.Norm()
			l0 := dt + theta*c0[k0].rho
			ok, gap := true, math.Inf(1)
			for k, c := range c0 {
				if k == k0 {
					continue
				}
				gap = min(gap, c.h-c0[k0].h)
				if c.h-c0[k0].h <= l0+dt+theta*c.rho {
					ok = false
				}
			}
			if ok {
				nCert++
			}
			gaps = append(gaps, gap/rmean)
			bounds = append(bounds, l0/rmean)
			moves = append(moves, math.Abs(c1[k0].h-c0[k0].h)/rmean)
		}
	}
	if nOver == 0 {
		b.Skip("no overlapping pair tested in two frames")
	}
	b.ReportMetric(float64(nOver), "coherent-overlaps")
	b.ReportMetric(100*float64(nCert)/float64(nOver), "certified-%")
	b.ReportMetric(100*float64(nSame)/float64(nOver), "same-axis-%")
	b.ReportMetric(median(gaps), "gap/r")
	b.ReportMetric(median(bounds), "bound/r")
	b.ReportMetric(median(moves), "depth-change/r")
}

func argminH(cs []satCandidate) int {
	k := 0
	for i := range cs {
		if cs[i].h < cs[k].h {
			k = i
		}
	}
	return k
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
