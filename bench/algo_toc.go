package bench

import (
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/toc"
)

// The time of contact of package toc ("Precise Generalized Contact Point
// and Normal Determination for Rigid Body Simulation", Algorithm 2, with
// its edge phase) as a motions algorithm, "toc": the first time the two
// surfaces touch under the workload's screw motion (FORMAT.md Sec. 6), for
// solids and for triangle soups (meshpairs workloads) alike. Its times are
// conservative: never later than the true contact, earlier by at most the
// default tolerance's share of the step.
func init() {
	RegisterCCD("toc", func(w *Workload) (CCDAlgo, error) {
		shapes, err := prepareMeshes(w, toc.ShapeOf)
		if err != nil {
			return nil, err
		}
		return &tocAlgo{w: w, shapes: shapes, opt: toc.Options{Motion: geom.ScrewMotion}}, nil
	})
}

type tocAlgo struct {
	w      *Workload
	shapes []*toc.Shape
	q      toc.Scratch
	opt    toc.Options
	buf    []toc.Contact
}

func (a *tocAlgo) Query(q *Query) (bool, float64) {
	var err error
	a.buf, err = a.q.Between(a.shapes[q.MeshA], q.A0, q.A1, a.shapes[q.MeshB], q.B0, q.B1, &a.opt, a.buf[:0])
	if err != nil || len(a.buf) == 0 {
		return false, 0
	}
	t := a.buf[0].Time
	for _, c := range a.buf[1:] {
		t = min(t, c.Time)
	}
	return true, t
}
