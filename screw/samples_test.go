package screw

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// sampleQuery is one row of a motions workload (../shared/bench/FORMAT.md
// Sec. 6), parsed here independently of package bench.
type sampleQuery struct {
	id             int
	a0, a1, b0, b1 geom.Pose
	hit            bool
	toc            float64
}

func readCSV(t testing.TB, path string) (map[string]int, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var head map[string]int
	var rows [][]string
	for sc.Scan() {
		fs := strings.Split(sc.Text(), ",")
		if head == nil {
			head = map[string]int{}
			for i, h := range fs {
				head[h] = i
			}
			continue
		}
		rows = append(rows, fs)
	}
	return head, rows
}

func loadSamples(t testing.TB, dir string) []sampleQuery {
	t.Helper()
	head, rows := readCSV(t, filepath.Join(dir, "queries.csv"))
	num := func(r []string, col string) float64 {
		x, err := strconv.ParseFloat(r[head[col]], 64)
		if err != nil {
			t.Fatalf("%s: column %s: %v", dir, col, err)
		}
		return x
	}
	pose := func(r []string, p string) geom.Pose {
		q := geom.Quat{W: num(r, p+"_qw"), X: num(r, p+"_qx"), Y: num(r, p+"_qy"), Z: num(r, p+"_qz")}
		q, _ = q.Normalize()
		return geom.Pose{P: geom.Vec3{X: num(r, p+"_px"), Y: num(r, p+"_py"), Z: num(r, p+"_pz")}, Q: q}
	}
	var qs []sampleQuery
	for _, r := range rows {
		qs = append(qs, sampleQuery{id: int(num(r, "id")), a0: pose(r, "a0"), a1: pose(r, "a1"), b0: pose(r, "b0"), b1: pose(r, "b1")})
	}
	eh, er := readCSV(t, filepath.Join(dir, "expected", "ccd.csv"))
	for i, r := range er {
		if r[eh["hit"]] == "1" {
			qs[i].hit = true
			qs[i].toc, _ = strconv.ParseFloat(r[eh["toc"]], 64)
		}
	}
	return qs
}

var sampleSets = []struct {
	dir  string
	mesh func() *mesh.Mesh
}{
	{"../testdata/bench-samples/screwpairs-cube-q200-s4", func() *mesh.Mesh { return shapes.Cube(1) }},
	{"../testdata/bench-samples/screwpairs-car-q200-s5", shapes.Car},
	{"../testdata/bench-samples/screwpairs-torus-q200-s6", func() *mesh.Mesh { return shapes.Torus(1, 0.35, 20, 15) }},
}

// TestBenchSamples compares FirstContact with the reference answers of the
// sample motion workloads (FORMAT.md Sec. 8: no false positive or negative,
// |toc - t*| <= 1e-2) at the three resolutions.
var samplePPE = []float64{6, 12, 24}

func TestBenchSamples(t *testing.T) {
	for _, set := range sampleSets {
		qs := loadSamples(t, set.dir)
		m := set.mesh()
		for _, ppe := range samplePPE {
			d := NewDetector()
			opt := &Options{PixelsPerEdge: ppe}
			fn, fp, maxErr := 0, 0, 0.0
			start := cpuTime()
			for _, q := range qs {
				hit, toc, err := d.FirstContact(m, m, q.a0, q.a1, q.b0, q.b1, opt)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case hit && !q.hit:
					fp++
					t.Errorf("%s px%v query %d: false positive toc=%v", filepath.Base(set.dir), ppe, q.id, toc)
				case !hit && q.hit:
					fn++
					t.Errorf("%s px%v query %d: false negative, expected toc %v", filepath.Base(set.dir), ppe, q.id, q.toc)
				case hit:
					e := math.Abs(toc - q.toc)
					maxErr = max(maxErr, e)
					if e > 1e-2 {
						t.Errorf("%s px%v query %d: toc %v, expected %v", filepath.Base(set.dir), ppe, q.id, toc, q.toc)
					}
				}
			}
			el := cpuTime() - start
			t.Logf("%s px%v: FN %d FP %d max|toc err| %.3g  %.1f us/query", filepath.Base(set.dir), ppe, fn, fp, maxErr, float64(el.Microseconds())/float64(len(qs)))
		}
	}
}

// cpuTime returns the process's user+system CPU time, which (unlike wall
// time) does not grow when other processes compete for the CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fmtPoses(q sampleQuery) string {
	return fmt.Sprintf("a0=%v a1=%v b0=%v b1=%v", q.a0, q.a1, q.b0, q.b1)
}
