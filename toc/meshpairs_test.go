package toc

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshio"
)

// envRobDir is a copy of the benchmark sample of FCL's rob-in-env scene:
// FCL's env.obj and rob.obj (triangle soups storing every triangle with its
// own vertices), 60 screw motions of rob in env, and the reference first
// contacts of the two surfaces (dense sampling and bisection).
var envRobDir = filepath.Join("testdata", "meshpairs-env-rob-fcl-q60-s7")

type pairQuery struct {
	a0, a1, b0, b1 geom.Pose
	hit            bool
	toc            float64
}

// loadEnvRob returns the soups of env (A) and rob (B) and the queries with
// their reference answers.
func loadEnvRob(t testing.TB) (env, rob *Shape, qs []pairQuery) {
	t.Helper()
	shape := func(name string) *Shape {
		ms, err := meshio.ReadSoupFile(filepath.Join(envRobDir, "meshes", name))
		if err != nil {
			t.Fatal(err)
		}
		tris := make([][3]int32, len(ms.Faces))
		for i, f := range ms.Faces {
			if len(f) != 3 {
				t.Fatalf("%s: face %d has %d vertices", name, i, len(f))
			}
			tris[i] = [3]int32{int32(f[0]), int32(f[1]), int32(f[2])}
		}
		s, err := NewSoup(ms.Verts, tris)
		if err != nil {
			t.Fatal(err)
		}
		sh, err := NewShape(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sh
	}
	env, rob = shape("env.obj"), shape("rob.obj")
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(envRobDir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows[1:]
	}
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	pose := func(row []string, k int) geom.Pose {
		return geom.Pose{P: geom.V(num(row[k]), num(row[k+1]), num(row[k+2])), Q: geom.Quat{W: num(row[k+3]), X: num(row[k+4]), Y: num(row[k+5]), Z: num(row[k+6])}}
	}
	for _, row := range read("queries.csv") {
		if row[1] != "env" || row[2] != "rob" {
			t.Fatalf("query %s: meshes %s %s", row[0], row[1], row[2])
		}
		qs = append(qs, pairQuery{a0: pose(row, 3), a1: pose(row, 10), b0: pose(row, 17), b1: pose(row, 24)})
	}
	exp := read(filepath.Join("expected", "ccd.csv"))
	if len(exp) != len(qs) {
		t.Fatalf("%d reference answers for %d queries", len(exp), len(qs))
	}
	for i, row := range exp {
		if id, _ := strconv.Atoi(row[0]); id != i {
			t.Fatalf("reference row %d has id %s", i, row[0])
		}
		qs[i].hit = row[1] == "1"
		if qs[i].hit {
			qs[i].toc = num(row[2])
		}
	}
	return env, rob, qs
}

// TestEnvRobReference: on FCL's rob-in-env motions (screw motion, FORMAT
// of the collide benchmark, Sec. 6) every reference first contact of the
// surfaces is found, none later than the reference by more than 1e-2 of
// the step (the benchmark judge's tolerance), and the default tolerance
// (1e-3 of rob's size) keeps false positives and early answers near
// contacts. Without the edge phase, edge-against-edge first contacts come
// late.
func TestEnvRobReference(t *testing.T) {
	if testing.Short() {
		t.Skip("rob in env: about a second")
	}
	env, rob, qs := loadEnvRob(t)
	var q Scratch
	var cs []Contact
	for _, pointsOnly := range []bool{false, true} {
		opt := &Options{Motion: geom.ScrewMotion, PointsOnly: pointsOnly}
		hits, late, fp := 0, 0, 0
		maxLate, maxEarly := 0.0, 0.0
		start := time.Now()
		for i, pq := range qs {
			var err error
			cs, err = q.Between(env, pq.a0, pq.a1, rob, pq.b0, pq.b1, opt, cs[:0])
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case pq.hit && len(cs) == 0:
				t.Errorf("points only %v: query %d: missed the contact at %v", pointsOnly, i, pq.toc)
			case pq.hit:
				hits++
				c := cs[0]
				if err := c.Record(); err.Validate() != nil {
					t.Errorf("query %d: %v", i, err.Validate())
				}
				d := c.Time - pq.toc
				maxLate, maxEarly = math.Max(maxLate, d), math.Max(maxEarly, -d)
				if d > 1e-2 {
					late++
					if !pointsOnly {
						t.Errorf("query %d: contact at %v, reference %v: late by %.3g", i, c.Time, pq.toc, d)
					}
				}
				if -d > 1e-2 {
					t.Errorf("points only %v: query %d: contact at %v, reference %v: early by %.3g", pointsOnly, i, c.Time, pq.toc, -d)
				}
			case len(cs) > 0:
				fp++
			}
		}
		t.Logf("points only %v: %d hits, %d late beyond 1e-2 (latest %+.3g, earliest %.3g), %d false positives; %.0f µs per query",
			pointsOnly, hits, late, maxLate, maxEarly, fp, float64(time.Since(start).Microseconds())/float64(len(qs)))
		if fp != 0 {
			t.Errorf("points only %v: %d false positives", pointsOnly, fp)
		}
		if hits < len(qs)/5 {
			t.Errorf("only %d of %d queries hit: the sample tests little", hits, len(qs))
		}
		if pointsOnly && late == 0 {
			t.Errorf("points only: no late contact; the sample no longer shows what the edge phase is for")
		}
	}
}
