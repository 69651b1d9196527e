package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
	"github.com/collide-go/collide/meshquery"
)

// MeshPairsSpec describes a generated "meshpairs" motions workload
// (FORMAT.md Sec. 6): body B, a triangle soup read from a model file,
// moves by screw motions against the static soup A, and the query is the
// first time the two surfaces touch. The zero value of a field means the
// documented default.
type MeshPairsSpec struct {
	A, B     string  // model files (OBJ, OFF, PLY or STL) of A and B (required)
	Scenario string  // "fcl" (B starts inside A's box, FCL's test_fcl_collision) or "approach" (default)
	Queries  int     // number of queries (default 60)
	MaxRot   float64 // largest rotation of B over a step, degrees (default 45)
	Pass     float64 // approach: fraction of motions passing beyond A's centre (default 0.5)
	Aim      float64 // approach: largest sideways aim offset, in A's radii (default 1)
	Seed     uint64  // random seed (default 1)
}

func (s MeshPairsSpec) withDefaults() MeshPairsSpec {
	if s.Scenario == "" {
		s.Scenario = "approach"
	}
	orDefault(&s.Queries, 60)
	orDefault(&s.MaxRot, 45)
	orDefault(&s.Pass, 0.5)
	orDefault(&s.Aim, 1)
	orDefault(&s.Seed, 1)
	return s
}

// soupMesh reads a model file as a triangle soup in the format's sense
// (Sec. 3): polygons fan-triangulated, triangles with an exactly zero
// cross product dropped, vertex order and winding kept.
func soupMesh(path string) (verts []geom.Vec3, tris [][3]int, err error) {
	s, err := meshio.ReadSoupFile(path)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range s.Faces {
		for k := 1; k+1 < len(f); k++ {
			a, b, c := s.Verts[f[0]], s.Verts[f[k]], s.Verts[f[k+1]]
			if b.Sub(a).Cross(c.Sub(a)) == (geom.Vec3{}) {
				continue
			}
			tris = append(tris, [3]int{f[0], f[k], f[k+1]})
		}
	}
	if len(tris) == 0 {
		return nil, nil, fmt.Errorf("bench: %s: no triangle of non-zero area", path)
	}
	return s.Verts, tris, nil
}

func writeSoupOBJ(path string, verts []geom.Vec3, tris [][3]int) error {
	var b strings.Builder
	for _, v := range verts {
		fmt.Fprintf(&b, "v %s %s %s\n", ff(v.X), ff(v.Y), ff(v.Z))
	}
	for _, t := range tris {
		fmt.Fprintf(&b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// sphereOf returns the centre of m's bounding box and the largest
// distance of a vertex from it.
func sphereOf(m *mesh.Mesh) (geom.Vec3, float64) {
	c := m.Bounds().Center()
	r := 0.0
	for _, v := range m.Verts {
		r = math.Max(r, v.Sub(c).Norm())
	}
	return c, r
}

func randomQuat(rng *rand.Rand) geom.Quat {
	for {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if n, ok := q.Normalize(); ok {
			return n
		}
	}
}

func randomDir(rng *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		if l := v.Norm(); l > 1e-3 {
			return v.Scale(1 / l)
		}
	}
}

// GenerateMeshPairs writes the workload spec describes to dir, with the
// reference first contacts of the surfaces in expected/ccd.csv
// (MeshPairsReference), and returns it as loaded back from dir.
func GenerateMeshPairs(spec MeshPairsSpec, dir string) (*Workload, error) {
	s := spec.withDefaults()
	if s.A == "" || s.B == "" {
		return nil, fmt.Errorf("bench: meshpairs: two model files are needed")
	}
	if s.Scenario != "fcl" && s.Scenario != "approach" {
		return nil, fmt.Errorf("bench: meshpairs: scenario %q is neither fcl nor approach", s.Scenario)
	}
	name := func(p string) string { return strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) }
	na, nb := name(s.A), name(s.B)
	if na == nb {
		nb += "_b"
	}
	if err := os.MkdirAll(filepath.Join(dir, "meshes"), 0o755); err != nil {
		return nil, err
	}
	var mjs []meshJSON
	var ms []*mesh.Mesh
	for i, src := range []string{s.A, s.B} {
		n := []string{na, nb}[i]
		verts, tris, err := soupMesh(src)
		if err != nil {
			return nil, err
		}
		file := "meshes/" + n + ".obj"
		if err := writeSoupOBJ(filepath.Join(dir, file), verts, tris); err != nil {
			return nil, err
		}
		m, err := MeshLoader(filepath.Join(dir, file))
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
		mjs = append(mjs, meshJSON{n, file, len(verts), len(tris), m.NumEdges(), false, m.Closed()})
	}
	ta, err := meshquery.New(ms[0])
	if err != nil {
		return nil, err
	}
	tb, err := meshquery.New(ms[1])
	if err != nil {
		return nil, err
	}
	ca, ra := sphereOf(ms[0])
	cb, rb := sphereOf(ms[1])
	boxA := ms[0].Bounds()
	rng := rand.New(rand.NewPCG(s.Seed, 0x6d657368706169))
	maxRot := s.MaxRot * math.Pi / 180
	endDelta := (boxA.Size().X + boxA.Size().Y) / 6
	var qs strings.Builder
	qs.WriteString("id,meshA,meshB")
	for _, p := range []string{"a0", "a1", "b0", "b1"} {
		qs.WriteString("," + strings.Join(poseCols(p+"_"), ","))
	}
	qs.WriteString("\n")
	var mq meshquery.Scratch
	ident := geom.PoseIdentity()
	tfA := ident.Transform()
	redrawn, passes := 0, 0
	for id := 0; id < s.Queries; id++ {
		var b0, b1 geom.Pose
		for {
			b0.Q = randomQuat(rng)
			b1.Q = geom.QuatAxisAngle(randomDir(rng), rng.Float64()*maxRot).Mul(b0.Q)
			if s.Scenario == "fcl" {
				u := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
				sz := boxA.Size()
				b0.P = boxA.Min.Add(geom.V(u.X*sz.X, u.Y*sz.Y, u.Z*sz.Z))
				b1.P = b0.P.Add(geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1).Scale(endDelta))
			} else {
				dir := randomDir(rng)
				c0 := ca.Add(dir.Scale((ra + rb) * (1.02 + 0.48*rng.Float64())))
				side := randomDir(rng)
				side = side.Sub(dir.Scale(side.Dot(dir)))
				if l := side.Norm(); l > 0 {
					side = side.Scale(1 / l)
				}
				aim := ca.Add(side.Scale(rng.Float64() * s.Aim * ra))
				way := aim.Sub(c0)
				l := way.Norm()
				way = way.Scale(1 / l)
				var c1 geom.Vec3
				if rng.Float64() < s.Pass {
					c1 = aim.Add(way.Scale((ra + rb) * (1.05 + 0.45*rng.Float64())))
					passes++
				} else {
					c1 = c0.Add(way.Scale(l * (0.2 + 0.8*rng.Float64())))
				}
				// B's bounding-sphere centre cb is at c0 and c1.
				b0.P = c0.Sub(b0.Q.Rotate(cb))
				b1.P = c1.Sub(b1.Q.Rotate(cb))
			}
			tf := b0.Transform()
			hit, err := mq.Intersect(ta, &tfA, tb, &tf)
			if err != nil {
				return nil, err
			}
			if !hit {
				break
			}
			redrawn++
		}
		fmt.Fprintf(&qs, "%d,%s,%s", id, na, nb)
		for _, p := range []geom.Pose{ident, ident, b0, b1} {
			fmt.Fprintf(&qs, ",%s,%s,%s,%s,%s,%s,%s", ff(p.P.X), ff(p.P.Y), ff(p.P.Z), ff(p.Q.W), ff(p.Q.X), ff(p.Q.Y), ff(p.Q.Z))
		}
		qs.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "queries.csv"), []byte(qs.String()), 0o644); err != nil {
		return nil, err
	}
	params := map[string]any{
		"scenario": s.Scenario, "queries": s.Queries, "max_rot_deg": s.MaxRot, "a_pose": "identity",
		"meshes":              []map[string]string{{"name": na, "source": filepath.Base(s.A)}, {"name": nb, "source": filepath.Base(s.B)}},
		"surfaces":            "meshes are triangle soups; the query is the first contact of the two surfaces",
		"start_disjoint":      fmt.Sprintf("A and B(t=0) checked with meshquery.Intersect; intersecting start poses were redrawn (%d redrawn)", redrawn),
		"start_poses_redrawn": redrawn,
		"generator_command":   "collide bench meshpairs",
	}
	if s.Scenario == "fcl" {
		params["end_delta"] = endDelta
		params["end_rule"] = "b1.p = b0.p + uniform [-end_delta, end_delta]^3 (end_delta = (A's x + y extent) / 6); b0.q uniform, b1.q = rotation about a random axis by uniform [0, max_rot] times b0.q"
		params["translation_box_rule"] = "b0.p uniform in A's AABB"
	} else {
		params["aim"], params["pass_through"] = s.Aim, s.Pass
		params["start_rule"] = "B's bounding-sphere centre at A's centre + (rA + rB) * uniform[1.02, 1.5] * random direction; it moves straight towards A's centre + uniform[0, aim] * rA sideways, stopping at 20-100% of the way (no pass) or (rA + rB) * uniform[1.05, 1.5] beyond (pass); rotation as in fcl"
		params["pass_through_queries"] = passes
	}
	doc := map[string]any{
		"format": "bench-workload/1", "kind": "motions", "generator": "meshpairs", "seed": s.Seed,
		"name":    fmt.Sprintf("meshpairs-%s-%s-%s-q%d-s%d", na, nb, s.Scenario, s.Queries, s.Seed),
		"params":  params,
		"meshes":  mjs,
		"queries": "queries.csv", "num_queries": s.Queries,
		"stats": map[string]any{"bounding_sphere_radius": map[string]float64{"A": ra, "B": rb}},
	}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "workload.json"), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	w, err := Load(dir)
	if err != nil {
		return nil, err
	}
	ref, err := MeshPairsReference(w)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	out.WriteString("id,hit,toc,bracket,exact_samples\n")
	for i, r := range ref {
		if r.Hit {
			fmt.Fprintf(&out, "%d,1,%s,%s,%d\n", w.Queries[i].ID, ff(r.TOC), ff(r.Bracket), r.Samples)
		} else {
			fmt.Fprintf(&out, "%d,0,,,%d\n", w.Queries[i].ID, r.Samples)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "expected"), 0o755); err != nil {
		return nil, err
	}
	return w, os.WriteFile(filepath.Join(dir, "expected", "ccd.csv"), []byte(out.String()), 0o644)
}
