package convex

import (
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
)

// The Dobkin-Kirkpatrick hierarchy of Sec. 5: P_1 = P, and P_{i+1} is P_i
// without an independent set of vertices of low degree, down to a handful of
// vertices. A supporting vertex of P_{i+1} is, or is a neighbour in P_i of,
// a supporting vertex of P_i (Lemma 5), so the search walks down the levels
// in O(log n) steps.
//
// Each coarse level is the convex hull (package hull) of the kept vertices,
// so its neighbour lists are exactly its edges. The last step always climbs
// on P itself, so the answer is exact even where the hull merged nearly
// coplanar points away.

// Parameters of the hierarchy construction.
const (
	dkMaxDegree = 8  // only vertices of at most this degree are removed
	dkTopSize   = 12 // stop when a level has at most this many vertices
	dkMinRemove = 16 // stop when fewer than 1/dkMinRemove of a level's vertices can be removed
)

type dkLevel struct {
	ids   []int32 // polytope vertex id of each vertex of the level
	start []int32 // neighbours of local vertex i: adj[start[i]:start[i+1]]
	adj   []int32 // local indices in this level
	down  []int32 // local index in the next finer level (for levels[0]: polytope vertex id)
}

type hierarchy struct {
	levels []dkLevel // levels[0] is the level just coarser than P; the last is the coarsest
}

// top returns the vertices of the coarsest level, scanned linearly.
func (h *hierarchy) topIDs() []int32 {
	if len(h.levels) == 0 {
		return nil
	}
	return h.levels[len(h.levels)-1].ids
}

func buildHierarchy(p *Polytope) hierarchy {
	// Current level: polytope ids and neighbour lists in local indices.
	n := len(p.verts)
	ids := make([]int32, n)
	nbr := make([][]int32, n)
	for i := range ids {
		ids[i] = int32(i)
		nbr[i] = p.Neighbors(i)
	}
	var h hierarchy
	for len(ids) > dkTopSize {
		order := make([]int32, len(ids))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return len(nbr[a]) - len(nbr[b]) })
		removed := make([]bool, len(ids))
		blocked := make([]bool, len(ids))
		nrem := 0
		for _, v := range order {
			if len(nbr[v]) > dkMaxDegree || len(ids)-nrem <= 4 {
				break
			}
			if blocked[v] {
				continue
			}
			removed[v] = true
			nrem++
			blocked[v] = true
			for _, u := range nbr[v] {
				blocked[u] = true
			}
		}
		if nrem == 0 || nrem*dkMinRemove < len(ids) {
			break
		}
		var keep []int32 // local indices (current level) of kept vertices
		var pts []geom.Vec3
		for i := range ids {
			if !removed[i] {
				keep = append(keep, int32(i))
				pts = append(pts, p.verts[ids[i]])
			}
		}
		m, idx, err := hull.NewIndexed(pts, &hull.Options{Tol: 1e-12})
		if err != nil || m.NumVerts() < 4 {
			break // degenerate (flat) remainder: scan it as the top level
		}
		lv := dkLevel{
			ids:   make([]int32, m.NumVerts()),
			down:  make([]int32, m.NumVerts()),
			start: make([]int32, m.NumVerts()+1),
		}
		newNbr := make([][]int32, m.NumVerts())
		for j := range lv.ids {
			lv.down[j] = keep[idx[j]]
			lv.ids[j] = ids[keep[idx[j]]]
			newNbr[j] = m.Neighbors(j, nil)
			lv.adj = append(lv.adj, newNbr[j]...)
			lv.start[j+1] = int32(len(lv.adj))
		}
		h.levels = append(h.levels, lv)
		ids, nbr = lv.ids, newNbr
	}
	return h
}

// SupportDK returns a supporting vertex in local direction d from scratch
// through the Dobkin-Kirkpatrick hierarchy (Sec. 5): the best vertex of the
// coarsest level by a scan, then a local search on every finer level
// (Lemma 5), and finally hill climbing on the polytope itself.
func (p *Polytope) SupportDK(d geom.Vec3) (int32, float64) {
	ls := p.hierarchy().levels
	if len(ls) == 0 {
		return p.SupportBrute(d)
	}
	vs := p.verts
	top := &ls[len(ls)-1]
	best, h := int32(0), math.Inf(-1)
	for i, id := range top.ids {
		if s := d.Dot(vs[id]); s > h {
			best, h = int32(i), s
		}
	}
	for li := len(ls) - 1; li >= 0; li-- {
		lv := &ls[li]
		for {
			nb := best
			for _, u := range lv.adj[lv.start[best]:lv.start[best+1]] {
				w := vs[lv.ids[u]]
				if s := d.X*w.X + d.Y*w.Y + d.Z*w.Z; s > h {
					h, nb = s, u
				}
			}
			if nb == best {
				break
			}
			best = nb
		}
		best = lv.down[best]
	}
	return p.SupportFrom(d, best)
}
