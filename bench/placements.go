package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/collide-go/collide/geom"
)

// Placement is one "placements" query (the benchmark format, FORMAT.md Sec.
// 6a): mesh MeshA at pose A and mesh MeshB at pose B.
type Placement struct {
	ID           int
	MeshA, MeshB int // indices into Workload.Meshes
	A, B         geom.Pose
}

// MeshDistAlgo answers "meshdist" queries of a placements workload: do
// the two surfaces share a point (closed triangles, touching counts), and
// if not, their distance. Query gets the index of the placement in
// Workload.Placements and the two meshes' transforms (converted before
// the timed region).
type MeshDistAlgo interface {
	Query(i int, ta, tb *geom.Transform) (hit bool, dist float64)
}

// MeshDistFactory builds a MeshDistAlgo for a workload (untimed: BVHs and
// other per-mesh preprocessing belong here).
type MeshDistFactory func(w *Workload) (MeshDistAlgo, error)

// RegisterMeshDist registers a mesh distance algorithm under name.
func RegisterMeshDist(name string, f MeshDistFactory) {
	add(&entry{name: name, task: "meshdist", meshdist: f})
}

type meshdistAnswer struct {
	hit  bool
	dist float64
}

// loadPlacementsFile reads the placements of a workload whose
// workload.json is jpath.
func (w *Workload) loadPlacementsFile(dir, jpath, name string, num *int) error {
	if name == "" {
		name = "placements.csv"
	}
	if err := w.loadPlacements(filepath.Join(dir, name)); err != nil {
		return err
	}
	if num != nil && *num != len(w.Placements) {
		return fmt.Errorf("%s: num_queries is %d but %s has %d rows", jpath, *num, name, len(w.Placements))
	}
	return nil
}

func (w *Workload) loadPlacements(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	c, err := openCSV(path, f)
	if err != nil {
		return err
	}
	base, err := c.need("id", "meshA", "meshB")
	if err != nil {
		return err
	}
	pidx, pnames, err := c.poseColumns("a_", "b_")
	if err != nil {
		return err
	}
	for c.next() {
		var p Placement
		if p.ID, err = c.int(base[0], "id"); err != nil {
			return err
		}
		if p.MeshA, p.MeshB, err = c.meshPair(w, base[1], base[2]); err != nil {
			return err
		}
		if p.A, err = c.pose(pidx[0], pnames[0]); err != nil {
			return err
		}
		if p.B, err = c.pose(pidx[1], pnames[1]); err != nil {
			return err
		}
		w.Placements = append(w.Placements, p)
	}
	return c.finish(len(w.Placements), "placements")
}

// meshdistPass builds the algorithm of e and returns a function that
// answers every placement into r (timed: the queries only; transforms are
// converted before).
func meshdistPass(w *Workload, e *entry, r *Result) (func(bool) time.Duration, error) {
	alg, err := e.meshdist(w)
	if err != nil {
		return nil, err
	}
	n := len(w.Placements)
	r.Queries = n
	r.meshdist = make([]meshdistAnswer, n)
	ta, tb := make([]geom.Transform, n), make([]geom.Transform, n)
	for i, p := range w.Placements {
		ta[i], tb[i] = p.A.Transform(), p.B.Transform()
		r.queryIDs = append(r.queryIDs, p.ID)
	}
	return func(bool) time.Duration {
		ans := r.meshdist
		start := time.Now()
		for i := range ans {
			ans[i].hit, ans[i].dist = alg.Query(i, &ta[i], &tb[i])
		}
		return time.Since(start)
	}, nil
}

// writeMeshdist writes the results.csv rows of a meshdist result.
func writeMeshdist(b *strings.Builder, r *Result) {
	b.WriteString("id,hit,dist\n")
	for i, a := range r.meshdist {
		id := strconv.Itoa(r.queryIDs[i])
		if a.hit {
			fmt.Fprintf(b, "%s,1,\n", id)
		} else if math.IsInf(a.dist, 0) || math.IsNaN(a.dist) {
			fmt.Fprintf(b, "%s,0,\n", id)
		} else {
			fmt.Fprintf(b, "%s,0,%s\n", id, strconv.FormatFloat(a.dist, 'g', 17, 64))
		}
	}
}
