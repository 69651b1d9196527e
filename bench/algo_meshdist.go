package bench

import (
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// The discrete mesh-mesh queries of package meshquery: an exact
// triangle-triangle intersection test over both meshes' box hierarchies,
// then, without a hit, the branch-and-bound distance. The trees are built
// before the timed region.
func init() {
	RegisterMeshDist("meshquery", func(w *Workload) (MeshDistAlgo, error) {
		trees, err := prepareMeshes(w, meshquery.New)
		if err != nil {
			return nil, err
		}
		return &meshqueryAlgo{w: w, trees: trees}, nil
	})
}

type meshqueryAlgo struct {
	w     *Workload
	trees []*meshquery.Tree
	q     meshquery.Scratch
}

func (a *meshqueryAlgo) Query(i int, ta, tb *geom.Transform) (bool, float64) {
	p := &a.w.Placements[i]
	res, err := a.q.Distance(a.trees[p.MeshA], ta, a.trees[p.MeshB], tb, nil)
	if err != nil {
		return false, math.NaN() // judged as a missing distance
	}
	return res.Hit, res.Dist
}
