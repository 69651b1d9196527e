package meshquery

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
)

// TestWritePlacementsWorkload writes a "placements" benchmark workload of
// two meshes, A at the identity and B at random rotations with its box
// centre at 0.4 to 0.8 times the sum of the bounding radii from A's, with
// reference answers from the brute-force oracles of this package's tests,
// when MESHQUERY_WORKLOAD names the directory to create (skipped
// otherwise). MESHQUERY_A and MESHQUERY_B name the mesh files (default
// Bullet's duck and parry's low-poly bunny from testdata),
// MESHQUERY_SEED and MESHQUERY_N the seed (default 21) and the number of
// placements (default 40).
//
//	MESHQUERY_WORKLOAD=/tmp/duck-bunny go test ./meshquery -run TestWritePlacementsWorkload
//	go run -tags refbench ./refbench /tmp/duck-bunny
func TestWritePlacementsWorkload(t *testing.T) {
	dir := os.Getenv("MESHQUERY_WORKLOAD")
	if dir == "" {
		t.Skip("MESHQUERY_WORKLOAD not set")
	}
	seed, n := uint64(21), 40
	if s := os.Getenv("MESHQUERY_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	if s := os.Getenv("MESHQUERY_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	srcA, srcB := "../testdata/meshes/bullet/duck.obj", "../testdata/meshes/parry/low_poly_bunny.obj"
	if s := os.Getenv("MESHQUERY_A"); s != "" {
		srcA = s
	}
	if s := os.Getenv("MESHQUERY_B"); s != "" {
		srcB = s
	}
	name := func(p string) string { return strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) }
	nameA, nameB := name(srcA), name(srcB)
	if nameA == nameB {
		nameA, nameB = nameA+"_a", nameB+"_b"
	}
	ma, mb := testutil.ReadMesh(t, srcA), testutil.ReadMesh(t, srcB)
	a, b := mustTree(t, ma), mustTree(t, mb)
	for _, d := range []string{"meshes", "expected"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for nm, src := range map[string]string{nameA: srcA, nameB: srcB} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "meshes", nm+".obj"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(seed, 1))
	cb := mb.Bounds().Center()
	ca := ma.Bounds().Center()
	reach := a.Scale() + b.Scale()
	scale := (a.Scale() + b.Scale()) / 2
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
	var pl, ex strings.Builder
	pl.WriteString("id,meshA,meshB,a_px,a_py,a_pz,a_qw,a_qx,a_qy,a_qz,b_px,b_py,b_pz,b_qw,b_qx,b_qy,b_qz\n")
	ex.WriteString("id,hit,dist,scale,tri_pairs\n")
	hits := 0
	for i := 0; i < n; i++ {
		pb := placeAround(r, ca, cb, reach)
		pa := geom.PoseIdentity()
		fmt.Fprintf(&pl, "%d,%s,%s,0,0,0,1,0,0,0,%s,%s,%s,%s,%s,%s,%s\n", i, nameA, nameB, g(pb.P.X), g(pb.P.Y), g(pb.P.Z), g(pb.Q.W), g(pb.Q.X), g(pb.Q.Y), g(pb.Q.Z))
		o := oracleOf(ma, mb, pa, pb)
		if o.bruteHit() {
			hits++
			fmt.Fprintf(&ex, "%d,1,,%s,0\n", i, g(scale))
		} else {
			fmt.Fprintf(&ex, "%d,0,%s,%s,0\n", i, g(o.bruteDist()), g(scale))
		}
	}
	wname := fmt.Sprintf("placements-%s-%s-q%d-s%d", nameA, nameB, n, seed)
	wj := fmt.Sprintf(`{"format":"bench-workload/1","name":%q,"kind":"placements","generator":"meshquery test","seed":%d,`+
		`"params":{"rule":"A at the identity, B at a random rotation with its box centre at 0.4 to 0.8 times the sum of the bounding radii from A's"},`+
		`"meshes":[{"name":%q,"file":"meshes/%s.obj","convex":false,"closed":%t},{"name":%q,"file":"meshes/%s.obj","convex":false,"closed":%t}],`+
		`"placements":"placements.csv","num_queries":%d}`+"\n", wname, seed, nameA, nameA, ma.Closed(), nameB, nameB, mb.Closed(), n)
	for nm, data := range map[string]string{"workload.json": wj, "placements.csv": pl.String(), "expected/meshdist.csv": ex.String()} {
		if err := os.WriteFile(filepath.Join(dir, nm), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%s: %d placements, %d hits, written to %s", wname, n, hits, dir)
}

// placeAround returns a pose of B at a random rotation with B's point cb
// at 0.4 to 0.8 times reach from A's point ca in a random direction (A at
// the identity).
func placeAround(r *rand.Rand, ca, cb geom.Vec3, reach float64) geom.Pose {
	qb := randQuat(r)
	d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	d, _ = d.Normalize()
	return geom.Pose{P: ca.Sub(qb.Rotate(cb)).Add(d.Scale(reach * (0.4 + 0.4*r.Float64()))), Q: qb}
}

// TestSplitWorkload splits the placements workload in the directory named
// by MESHQUERY_SPLIT (skipped when unset) by its reference answers into
// two workloads beside it, DIR-hits and DIR-misses, to time intersection
// and distance apart:
//
//	MESHQUERY_SPLIT=$PWD/testdata/bench-samples/placements-env-rob-fcl-q60-s7 go test ./meshquery -run TestSplitWorkload
func TestSplitWorkload(t *testing.T) {
	dir := os.Getenv("MESHQUERY_SPLIT")
	if dir == "" {
		t.Skip("MESHQUERY_SPLIT not set")
	}
	read := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	pl, ex := read("placements.csv"), read("expected/meshdist.csv")
	hit := map[string]bool{}
	for _, l := range ex[1:] {
		rec := strings.Split(l, ",")
		hit[rec[0]] = rec[1] == "1"
	}
	var wj map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "workload.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &wj); err != nil {
		t.Fatal(err)
	}
	name := wj["name"]
	for _, part := range []string{"hits", "misses"} {
		keep := func(lines []string) string {
			out := lines[0] + "\n"
			for _, l := range lines[1:] {
				if hit[strings.SplitN(l, ",", 2)[0]] == (part == "hits") {
					out += l + "\n"
				}
			}
			return out
		}
		dst := strings.TrimSuffix(dir, "/") + "-" + part
		if err := os.MkdirAll(filepath.Join(dst, "expected"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dst, "meshes"), os.DirFS(filepath.Join(dir, "meshes"))); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		p := keep(pl)
		wj["name"], wj["num_queries"] = fmt.Sprintf("%v-%s", name, part), strings.Count(p, "\n")-1
		out, err := json.Marshal(wj)
		if err != nil {
			t.Fatal(err)
		}
		for nm, data := range map[string]string{"workload.json": string(out) + "\n", "placements.csv": p, "expected/meshdist.csv": keep(ex)} {
			if err := os.WriteFile(filepath.Join(dst, nm), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d placements", dst, wj["num_queries"])
	}
}
