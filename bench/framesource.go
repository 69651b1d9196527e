package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// FrameSource generates the frames of a FramesSpec one at a time, so a
// long run needs memory for one frame only. GenerateFrames collects its
// frames into a workload.
type FrameSource struct {
	w      *Workload
	side   float64
	radius []float64
	pos    []geom.Vec3
	vel    []geom.Vec3
	rot    []geom.Quat
	spin   []geom.Quat
}

// NewFrameSource builds the polytopes of spec and their starting state.
func NewFrameSource(spec FramesSpec) (*FrameSource, error) {
	s := spec.withDefaults()
	if s.Verts < 4 {
		return nil, fmt.Errorf("verts %d: a polytope needs at least 4", s.Verts)
	}
	var kinds []shapes.PolytopeShape
	if s.Shape == "mixed" {
		kinds = []shapes.PolytopeShape{shapes.Ellipsoid, shapes.Rod, shapes.Plate}
	} else {
		k, err := shapes.ParsePolytopeShape(s.Shape)
		if err != nil {
			return nil, err
		}
		kinds = []shapes.PolytopeShape{k}
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x6672616d6573))
	w := &Workload{
		Name:      fmt.Sprintf("polytopes-%s-n%d-b%d-f%d-s%d", s.Shape, s.Verts, s.Bodies, s.Frames, s.Seed),
		Kind:      "frames",
		MeshIndex: map[string]int{},
		Frames:    s.Frames,
	}
	vol, rmax := 0.0, 0.0
	g := &FrameSource{w: w, radius: make([]float64, s.Bodies)}
	for b := 0; b < s.Bodies; b++ {
		k := kinds[rng.IntN(len(kinds))]
		m := shapes.RandomPolytope(k, s.Verts, s.Radius, rng.Uint64())
		name := "b" + strconv.Itoa(b)
		w.MeshIndex[name] = b
		w.Meshes = append(w.Meshes, m)
		w.MeshNames = append(w.MeshNames, name)
		w.BodyMesh = append(w.BodyMesh, b)
		vol += m.Volume()
		g.radius[b] = m.Radius()
		rmax = math.Max(rmax, g.radius[b])
	}
	side := math.Max(math.Cbrt(vol/s.Density), 4*rmax)
	g.side = side
	g.pos = make([]geom.Vec3, s.Bodies)
	g.vel = make([]geom.Vec3, s.Bodies)
	g.rot = make([]geom.Quat, s.Bodies)
	g.spin = make([]geom.Quat, s.Bodies)
	unit := func() geom.Vec3 {
		for {
			if u, ok := (geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}).Normalize(); ok {
				return u
			}
		}
	}
	for b := range g.pos {
		r := g.radius[b]
		g.pos[b] = geom.Vec3{X: r + rng.Float64()*(side-2*r), Y: r + rng.Float64()*(side-2*r), Z: r + rng.Float64()*(side-2*r)}
		g.vel[b] = unit().Scale(s.Speed * r)
		g.rot[b] = geom.QuatAxisAngle(unit(), rng.Float64()*2*math.Pi)
		g.spin[b] = geom.QuatAxisAngle(unit(), s.RotDeg*math.Pi/180)
	}
	w.params = map[string]any{
		"bodies": s.Bodies, "verts": s.Verts, "frames": s.Frames, "shape": s.Shape,
		"density": s.Density, "speed": s.Speed, "rot_deg": s.RotDeg, "radius": s.Radius,
		"box": map[string]any{"min": []float64{0, 0, 0}, "max": []float64{side, side, side}},
	}
	w.seed = s.Seed
	return g, nil
}

// Workload returns the workload of the source's spec without poses: its
// meshes, bodies and frame count.
func (g *FrameSource) Workload() *Workload { return g.w }

// Side returns the edge length of the box the bodies bounce in (from
// the origin to Side on every axis).
func (g *FrameSource) Side() float64 { return g.side }

// Next returns the poses of the next frame, in dst if it has room, and
// advances every body: it moves by its velocity, bouncing off the walls
// (its centre kept a radius inside), and turns by its spin. The first
// call returns the starting poses.
func (g *FrameSource) Next(dst []geom.Pose) []geom.Pose {
	n := len(g.pos)
	if cap(dst) < n {
		dst = make([]geom.Pose, n)
	}
	dst = dst[:n]
	for b := range dst {
		dst[b] = geom.Pose{P: g.pos[b], Q: g.rot[b]}
		r := g.radius[b]
		p := g.pos[b].Add(g.vel[b])
		for i := 0; i < 3; i++ {
			if c := p.Get(i); c < r || c > g.side-r {
				g.vel[b] = g.vel[b].Set(i, -g.vel[b].Get(i))
				p = p.Set(i, math.Min(math.Max(c, r), g.side-r))
			}
		}
		g.pos[b] = p
		q, _ := g.spin[b].Mul(g.rot[b]).Normalize()
		g.rot[b] = q
	}
	return dst
}
