package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// Built-in scenes, in the collide simulation format (z up, SI units,
// density 1000 kg/m³, friction 0.5, restitution 0.2, 60 Hz): written with
// simio.WriteScene they can be simulated by any engine of the format and
// replayed by a viewer.

const (
	builtinDensity = 1000.0
	builtinDt      = 1.0 / 60
)

// scaled returns m scaled by s.
func scaled(m *mesh.Mesh, s geom.Vec3) (*mesh.Mesh, error) {
	verts := make([]geom.Vec3, len(m.Verts))
	for i, v := range m.Verts {
		verts[i] = v.Mul(s)
	}
	faces := make([][]int, m.NumFaces())
	for f := range faces {
		for _, v := range m.Face(f) {
			faces[f] = append(faces[f], int(v))
		}
	}
	return mesh.New(verts, faces, nil)
}

// addDynamicMesh centres a mesh at its centre of mass and appends it to the
// scene's meshes; it returns the mesh index and its mass properties.
func addDynamicMesh(sc *simio.Scene, name string, m *mesh.Mesh) (int, mesh.MassProps, error) {
	mp, err := mesh.MassProperties(m, builtinDensity)
	if err != nil {
		return 0, mp, fmt.Errorf("sim: built-in mesh %s: %w", name, err)
	}
	c, err := Centered(m, mp.Center)
	if err != nil {
		return 0, mp, err
	}
	mp.Center = geom.Vec3{}
	sc.Meshes = append(sc.Meshes, simio.Mesh{Name: name, File: "meshes/" + name + ".obj", Convex: c.Convex(), Closed: true, Mesh: c})
	return len(sc.Meshes) - 1, mp, nil
}

// bin returns an open box (floor and four walls as one closed solid) whose
// cavity is [-w, w]² × [0, h], with walls and floor of thickness t.
func bin(w, h, t float64) (*mesh.Mesh, error) {
	o := w + t
	verts := []geom.Vec3{
		{X: -o, Y: -o, Z: -t}, {X: o, Y: -o, Z: -t}, {X: o, Y: o, Z: -t}, {X: -o, Y: o, Z: -t},
		{X: -o, Y: -o, Z: h}, {X: o, Y: -o, Z: h}, {X: o, Y: o, Z: h}, {X: -o, Y: o, Z: h},
		{X: -w, Y: -w, Z: h}, {X: w, Y: -w, Z: h}, {X: w, Y: w, Z: h}, {X: -w, Y: w, Z: h},
		{X: -w, Y: -w, Z: 0}, {X: w, Y: -w, Z: 0}, {X: w, Y: w, Z: 0}, {X: -w, Y: w, Z: 0},
	}
	faces := [][]int{
		{0, 3, 2, 1}, {0, 1, 5, 4}, {4, 5, 9, 8}, {13, 12, 8, 9}, {1, 2, 6, 5}, {5, 6, 10, 9}, {14, 13, 9, 10},
		{2, 3, 7, 6}, {6, 7, 11, 10}, {15, 14, 10, 11}, {3, 0, 4, 7}, {7, 4, 8, 11}, {12, 15, 11, 8}, {12, 13, 14, 15},
	}
	return mesh.New(verts, faces, nil)
}

// PileScene returns a pile of n bodies (cubes, Buss's cars, tori and random
// convex polytopes, three sizes of each, turned at random) released in a
// jittered grid above a static open bin, simulated for steps steps.
func PileScene(n, steps int, seed uint64) (*simio.Scene, error) {
	if n < 1 || n > 100000 || steps < 1 {
		return nil, fmt.Errorf("sim: pile scene: %d bodies and %d steps (want 1..100000 bodies, at least 1 step)", n, steps)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	sc := &simio.Scene{Name: fmt.Sprintf("builtin-pile-b%d-s%d", n, seed), Kind: "pile", Gravity: geom.V(0, 0, -9.81),
		Dt: builtinDt, Steps: steps, Friction: 0.5, Restitution: 0.2, Settles: true,
		Params: map[string]any{"bodies": n, "seed": seed, "density": builtinDensity}}
	type variant struct {
		mesh int
		mp   mesh.MassProps
	}
	var vars []variant
	add := func(name string, m *mesh.Mesh, err error) error {
		if err != nil {
			return err
		}
		i, mp, err := addDynamicMesh(sc, name, m)
		vars = append(vars, variant{i, mp})
		return err
	}
	for k := 0; k < 3; k++ {
		s := 0.12 + 0.06*float64(k)
		if err := add(fmt.Sprintf("cube%d", k), shapes.Cube(s), nil); err != nil {
			return nil, err
		}
		cl := (0.3 + 0.1*float64(k)) / 2
		car, err := scaled(shapes.Car(), geom.V(cl, cl, cl))
		if err := add(fmt.Sprintf("car%d", k), car, err); err != nil {
			return nil, err
		}
		R := (0.27 + 0.08*float64(k)) / 2 / 1.35
		if err := add(fmt.Sprintf("torus%d", k), shapes.Torus(R, 0.35*R, 20, 15), nil); err != nil {
			return nil, err
		}
		if err := add(fmt.Sprintf("poly%d", k), shapes.RandomPolytope(shapes.Ellipsoid, 8+8*k, 0.1+0.04*float64(k), seed*7+uint64(k)), nil); err != nil {
			return nil, err
		}
	}
	rmax := 0.0
	for _, v := range vars {
		rmax = math.Max(rmax, sc.Meshes[v.mesh].Mesh.Radius())
	}
	cell := 2*rmax + 0.02
	g := int(math.Ceil(math.Sqrt(float64(n) / 3)))
	if g < 2 {
		g = 2
	}
	layers := (n + g*g - 1) / (g * g)
	w := float64(g) * cell / 2
	h := float64(layers+1) * cell
	bm, err := bin(w, h, 0.1)
	if err != nil {
		return nil, err
	}
	sc.Meshes = append(sc.Meshes, simio.Mesh{Name: "bin", File: "meshes/bin.obj", Closed: true, Mesh: bm})
	sc.Bodies = append(sc.Bodies, simio.Body{ID: 0, Mesh: len(sc.Meshes) - 1, Static: true})
	sc.Initial = append(sc.Initial, simio.State{Pose: geom.PoseIdentity()})
	jit := 0.01
	for i := 0; i < n; i++ {
		v := vars[rng.IntN(len(vars))]
		ix, iy, iz := i%g, (i/g)%g, i/(g*g)
		p := geom.V(-w+cell*(float64(ix)+0.5)+jit*(2*rng.Float64()-1),
			-w+cell*(float64(iy)+0.5)+jit*(2*rng.Float64()-1),
			cell*(float64(iz)+0.5)+0.01)
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		q := geom.QuatAxisAngle(axis, 2*math.Pi*rng.Float64())
		sc.Bodies = append(sc.Bodies, simio.Body{ID: i + 1, Mesh: v.mesh, Mass: v.mp.Mass, Inertia: v.mp.Inertia})
		sc.Initial = append(sc.Initial, simio.State{Pose: geom.Pose{P: p, Q: q}})
	}
	sc.Bounds = geom.AABB{Min: geom.V(-w, -w, 0), Max: geom.V(w, w, h)}
	return sc, nil
}

// ChainScene returns n tori (major radius R, tube R/4) linked into a
// horizontal chain along x, alternately in the xz and xy planes, the first
// threaded on a static bar along y; released at rest, the chain swings down
// from the bar.
func ChainScene(n, steps int) (*simio.Scene, error) {
	if n < 2 || n > 1000 || steps < 1 {
		return nil, fmt.Errorf("sim: chain scene: %d links and %d steps (want 2..1000 links, at least 1 step)", n, steps)
	}
	const R = 0.15
	sc := &simio.Scene{Name: fmt.Sprintf("builtin-chain-b%d", n), Kind: "chain", Gravity: geom.V(0, 0, -9.81),
		Dt: builtinDt, Steps: steps, Friction: 0.5, Restitution: 0.2,
		Params: map[string]any{"links": n, "R": R, "tube": 0.25}}
	ti, mp, err := addDynamicMesh(sc, "torus", shapes.Torus(R, 0.25*R, 24, 12))
	if err != nil {
		return nil, err
	}
	half := 4 * R
	bar := shapes.Box(geom.V(0.15*R, half, 0.15*R))
	sc.Meshes = append(sc.Meshes, simio.Mesh{Name: "bar", File: "meshes/bar.obj", Convex: true, Closed: true, Mesh: bar})
	sc.Bodies = append(sc.Bodies, simio.Body{ID: 0, Mesh: len(sc.Meshes) - 1, Static: true})
	sc.Initial = append(sc.Initial, simio.State{Pose: geom.Pose{P: geom.V(-0.375*R, 0, 0), Q: geom.QuatIdentity()}})
	upright := geom.QuatAxisAngle(geom.V(1, 0, 0), math.Pi/2) // the xz plane
	for i := 0; i < n; i++ {
		q := geom.QuatIdentity()
		if i%2 == 0 {
			q = upright
		}
		sc.Bodies = append(sc.Bodies, simio.Body{ID: i + 1, Mesh: ti, Mass: mp.Mass, Inertia: mp.Inertia})
		sc.Initial = append(sc.Initial, simio.State{Pose: geom.Pose{P: geom.V(1.375*R*float64(i), 0, 0), Q: q}})
	}
	reach := 1.375*R*float64(n) + 2*R
	sc.Bounds = geom.AABB{Min: geom.V(-reach, -half, -reach), Max: geom.V(reach, half, reach)}
	return sc, nil
}
