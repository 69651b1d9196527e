// Package hoop is the basketball-hoop test of Jansen, "Continuous
// Collision Detection in 3-D" (Sec. 4) on package cable, behind "collide
// scene hoop": a static rim, net, backboard and floor, and cables dropped
// through them, every contact found by continuous collision detection and
// every step checked by cable's independent crossing check.
package hoop

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide-go/collide/cable"
	"github.com/collide-go/collide/geom"
)

// Dimensions of the hoop scene, in metres (a regulation rim: 45.7 cm inner
// diameter at 3.05 m, 15 cm in front of a 1.8 m by 1.05 m backboard).
const (
	Height     = 3.05
	Radius     = 0.2286 + 0.01 // rim centre line
	TubeRadius = 0.01
	boardY     = -0.40 // front face of the backboard
)

// Config configures the basketball-hoop scene of Jansen, Sec. 4: a static
// rim (a triangulated torus), a static net hanging from it, a backboard and
// a floor, and cables dropped from above. The zero value is the default
// scene.
type Config struct {
	// Cables is the number of cables; zero means 8.
	Cables int
	// Segments per cable; zero means 24.
	Segments int
	// CableLength in metres; zero means 0.5.
	CableLength float64
	// NetAround and NetRows are the diamonds around the net and its rows;
	// zero means 32 and 8 (512 net edges).
	NetAround, NetRows int
	// Seed places the cables; zero means 1.
	Seed uint64
	// Spread is the half width in metres of the square, centred over the
	// rim, in which the cables' centres are placed; zero means 0.35.
	Spread float64
	// Frictionless turns off the default friction of the scene
	// (Options.Friction 0.3 unless set).
	Frictionless bool
	// Options of the system (time step, thickness, ccd method, ...).
	Options cable.Options
}

// Info counts the parts of a hoop scene.
type Info struct {
	Edges, CableEdges, NetEdges, RimEdges, Triangles, Particles int
}

func (h Config) resolve() Config {
	h.Cables = cmp.Or(h.Cables, 8)
	h.Segments = cmp.Or(h.Segments, 24)
	h.CableLength = cmp.Or(h.CableLength, 0.5)
	h.NetAround = cmp.Or(h.NetAround, 32)
	h.NetRows = cmp.Or(h.NetRows, 8)
	h.Seed = cmp.Or(h.Seed, 1)
	h.Spread = cmp.Or(h.Spread, 0.35)
	if !h.Frictionless {
		h.Options.Friction = cmp.Or(h.Options.Friction, 0.3)
	}
	return h
}

// New builds the hoop scene.
func New(h Config) (*cable.System, Info, error) {
	h = h.resolve()
	var info Info
	switch {
	case h.Cables < 0 || h.Cables > 1000:
		return nil, info, fmt.Errorf("hoop: Cables %d must be in [0, 1000]", h.Cables)
	case h.Segments < 1 || h.Segments > 1000:
		return nil, info, fmt.Errorf("hoop: Segments %d must be in [1, 1000]", h.Segments)
	case !(h.CableLength > 0 && h.CableLength <= 2):
		return nil, info, fmt.Errorf("hoop: CableLength %v must be in (0, 2] m", h.CableLength)
	case !(h.Spread > 0 && h.Spread <= 1):
		return nil, info, fmt.Errorf("hoop: Spread %v must be in (0, 1] m", h.Spread)
	case h.NetAround < 3 || h.NetAround > 512 || h.NetRows < 1 || h.NetRows > 64:
		return nil, info, fmt.Errorf("hoop: net of %d x %d diamonds (want 3..512 around, 1..64 rows)", h.NetAround, h.NetRows)
	}
	s, err := cable.New(h.Options)
	if err != nil {
		return nil, info, err
	}
	add := func(verts []geom.Vec3, edges [][2]int, tris [][3]int) {
		if err == nil {
			_, err = s.AddStaticMesh(verts, edges, tris)
		}
	}
	// Rim: a torus of 32 x 6 quads, each split into two triangles.
	const nu, nv = 32, 6
	var verts []geom.Vec3
	var edges [][2]int
	var tris [][3]int
	id := func(i, j int) int { return (i%nu)*nv + j%nv }
	for i := 0; i < nu; i++ {
		a := 2 * math.Pi * float64(i) / nu
		for j := 0; j < nv; j++ {
			b := 2 * math.Pi * float64(j) / nv
			r := Radius + TubeRadius*math.Cos(b)
			verts = append(verts, geom.V(r*math.Cos(a), r*math.Sin(a), Height+TubeRadius*math.Sin(b)))
		}
	}
	for i := 0; i < nu; i++ {
		for j := 0; j < nv; j++ {
			p, q, r, t := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			tris = append(tris, [3]int{p, q, r}, [3]int{p, r, t})
			edges = append(edges, [2]int{p, q}, [2]int{p, t}, [2]int{p, r})
		}
	}
	info.RimEdges = len(edges)
	add(verts, edges, tris)
	// Net: diamonds hanging from just below the rim, tapering to 60% of
	// half its radius.
	verts, edges, tris = verts[:0], edges[:0], tris[:0]
	na, nr := h.NetAround, h.NetRows
	height := 0.05 * float64(nr)
	for r := 0; r <= nr; r++ {
		f := float64(r) / float64(nr)
		rad := Radius * (1 - 0.5*f)
		z := Height - TubeRadius - 0.002 - height*f
		for i := 0; i < na; i++ {
			a := 2 * math.Pi * (float64(i) + 0.5*float64(r)) / float64(na)
			verts = append(verts, geom.V(rad*math.Cos(a), rad*math.Sin(a), z))
		}
	}
	for r := 0; r < nr; r++ {
		for i := 0; i < na; i++ {
			edges = append(edges, [2]int{r*na + i, (r+1)*na + i}, [2]int{r*na + i, (r+1)*na + (i+na-1)%na})
		}
	}
	info.NetEdges = len(edges)
	add(verts, edges, nil)
	// Backboard: a box, and a bracket of two edges to the rim.
	bx := [2]float64{-0.9, 0.9}
	by := [2]float64{boardY - 0.03, boardY}
	bz := [2]float64{Height - 0.15, Height + 0.90}
	verts, edges, tris = boxMesh(bx, by, bz)
	add(verts, edges, tris)
	rimBack := geom.V(0, -Radius-TubeRadius-0.003, Height)
	add([]geom.Vec3{geom.V(-0.05, boardY+0.002, Height), geom.V(0.05, boardY+0.002, Height), rimBack},
		[][2]int{{0, 2}, {1, 2}}, nil)
	// Floor: 4 x 4 quads over 3 m x 3 m.
	verts, edges, tris = gridMesh(-1.5, 1.5, 4)
	add(verts, edges, tris)
	if err != nil {
		return nil, info, err
	}
	// Cables: straight, at increasing heights above the rim, placed at
	// random (seeded) in front of the backboard.
	rng := rand.New(rand.NewPCG(h.Seed, 0x686f6f70))
	half := 0.5 * h.CableLength
	gap := 0.04 + 0.1*h.CableLength
	for c := 0; c < h.Cables && err == nil; c++ {
		z := Height + 0.25 + gap*float64(c)
		var from, to geom.Vec3
		for try := 0; ; try++ {
			ctr := geom.V(h.Spread*(2*rng.Float64()-1), h.Spread*(2*rng.Float64()-1), z)
			a := 2 * math.Pi * rng.Float64()
			tilt := 0.2 * gap * (2*rng.Float64() - 1)
			d := geom.V(half*math.Cos(a), half*math.Sin(a), tilt)
			from, to = ctr.Sub(d), ctr.Add(d)
			if math.Min(from.Y, to.Y) > boardY+0.02 || try > 1000 {
				break
			}
		}
		_, err = s.AddCable(cable.Cable{From: from, To: to, Segments: h.Segments, Mass: 0.05 * h.CableLength / 0.5,
			Stiffness: 100 * float64(h.Segments) / 24 / (h.CableLength / 0.5), Damping: 0.02})
	}
	if err != nil {
		return nil, info, err
	}
	info.CableEdges = h.Cables * h.Segments
	info.Edges = len(s.Edges())
	info.Triangles = len(s.Triangles())
	info.Particles = s.NumParticles()
	return s, info, nil
}

// boxMesh returns the 8 corners, 18 edges (with face diagonals) and 12
// triangles of an axis-aligned box.
func boxMesh(x, y, z [2]float64) ([]geom.Vec3, [][2]int, [][3]int) {
	var v []geom.Vec3
	for i := 0; i < 8; i++ {
		v = append(v, geom.V(x[i&1], y[i>>1&1], z[i>>2&1]))
	}
	quads := [6][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	var tris [][3]int
	seen := map[[2]int]bool{}
	var edges [][2]int
	addE := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		if !seen[[2]int{a, b}] {
			seen[[2]int{a, b}] = true
			edges = append(edges, [2]int{a, b})
		}
	}
	for _, q := range quads {
		tris = append(tris, [3]int{q[0], q[1], q[2]}, [3]int{q[0], q[2], q[3]})
		addE(q[0], q[1])
		addE(q[1], q[2])
		addE(q[2], q[3])
		addE(q[3], q[0])
		addE(q[0], q[2])
	}
	return v, edges, tris
}

// gridMesh returns a square of n x n quads in the plane z=0 from lo to hi
// in x and y.
func gridMesh(lo, hi float64, n int) ([]geom.Vec3, [][2]int, [][3]int) {
	var v []geom.Vec3
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			v = append(v, geom.V(lo+(hi-lo)*float64(i)/float64(n), lo+(hi-lo)*float64(j)/float64(n), 0))
		}
	}
	var edges [][2]int
	var tris [][3]int
	at := func(i, j int) int { return j*(n+1) + i }
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			if i < n {
				edges = append(edges, [2]int{at(i, j), at(i+1, j)})
			}
			if j < n {
				edges = append(edges, [2]int{at(i, j), at(i, j+1)})
			}
			if i < n && j < n {
				edges = append(edges, [2]int{at(i, j), at(i+1, j+1)})
				tris = append(tris, [3]int{at(i, j), at(i+1, j), at(i+1, j+1)}, [3]int{at(i, j), at(i+1, j+1), at(i, j+1)})
			}
		}
	}
	return v, edges, tris
}
