package view

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/sim"
	"github.com/collide-go/collide/simio"
)

// Recordings for the tests, made without a simulator: every dynamic body
// flies ballistically from its initial state (gravity, constant angular
// velocity) and bounces off the floor plane z = floor (the bottom of the
// scene's bounds) with restitution 1/2, where a contact is recorded between
// body 0 and the body at its lowest vertex, normal +z, with the depth the
// step reached below the floor. Bodies do not collide with each other.

// ballistic returns the recording of sc over steps steps, every k-th step
// recorded.
func ballistic(sc *simio.Scene, steps, k int) *simio.Recording {
	rec := &simio.Recording{Scene: sc.Name, Engine: "ballistic test generator", Steps: steps, Dt: sc.Dt,
		RecordEvery: k, Threads: 1, WallNs: int64(steps), NsPerStep: 1, ContactsPerStep: math.NaN()}
	type body struct {
		id   int
		st   simio.State
		low  float64 // lowest vertex distance from the centre
		mesh int
	}
	var bs []body
	rng := rand.New(rand.NewPCG(7, uint64(len(sc.Bodies))))
	for id, b := range sc.Bodies {
		if b.Static {
			continue
		}
		r := 0.0
		for _, v := range sc.Meshes[b.Mesh].Mesh.Verts {
			r = math.Max(r, v.Norm())
		}
		st := sc.Initial[id]
		if st.W.Norm() == 0 {
			st.W = geom.Vec3{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}.Scale(4)
		}
		bs = append(bs, body{id: id, st: st, low: r, mesh: b.Mesh})
		rec.Bodies = append(rec.Bodies, id)
	}
	floor := sc.Bounds.Min.Z
	recorded := map[int]bool{}
	for _, s := range simio.RecordedSteps(steps, k) {
		recorded[s] = true
	}
	snap := func(step int) {
		fr := simio.Frame{Step: step, States: make([]simio.State, len(bs))}
		for i, b := range bs {
			fr.States[i] = b.st
		}
		rec.Frames = append(rec.Frames, fr)
	}
	snap(0)
	dt := sc.Dt
	for s := 1; s <= steps; s++ {
		for i := range bs {
			b := &bs[i]
			b.st.V = b.st.V.AddScaled(dt, sc.Gravity)
			b.st.Pose.P = b.st.Pose.P.AddScaled(dt, b.st.V)
			dq := geom.QuatRotationVector(b.st.W.Scale(dt))
			q, _ := dq.Mul(b.st.Pose.Q).Normalize()
			b.st.Pose.Q = q
			// The lowest vertex of the mesh in this pose.
			low := geom.Vec3{}
			lz := math.Inf(1)
			for _, v := range sc.Meshes[b.mesh].Mesh.Verts {
				w := b.st.Pose.Apply(v)
				if w.Z < lz {
					lz, low = w.Z, w
				}
			}
			if lz < floor && b.st.V.Z < 0 {
				if recorded[s] {
					rec.Contacts = append(rec.Contacts, simio.Contact{Step: s, A: 0, B: b.id,
						Point: geom.Vec3{X: low.X, Y: low.Y, Z: floor}, Normal: geom.Vec3{Z: 1}, Depth: floor - lz})
				}
				b.st.Pose.P.Z += floor - lz
				b.st.V.Z = -0.5 * b.st.V.Z
				b.st.W = b.st.W.Scale(0.8)
			}
		}
		if recorded[s] {
			snap(s)
		}
	}
	if rec.Contacts == nil {
		rec.Contacts = []simio.Contact{}
	}
	return rec
}

// sampleRecording writes a ballistic recording of the sample scene name
// (testdata/sim-samples) into a temporary directory and returns the scene
// and recording directories.
func sampleRecording(t testing.TB, name string, steps, k int) (sceneDir, recDir string) {
	t.Helper()
	sceneDir = filepath.Join("..", "testdata", "sim-samples", name)
	sc, err := simio.ReadScene(sceneDir)
	if err != nil {
		t.Fatal(err)
	}
	recDir = filepath.Join(t.TempDir(), name+"-rec")
	if err := simio.WriteRecording(recDir, ballistic(sc, steps, k)); err != nil {
		t.Fatal(err)
	}
	return sceneDir, recDir
}

// simulatedRecording simulates the sample scene name with package sim and
// writes its recording with its contacts; for the documentation pictures.
func simulatedRecording(t testing.TB, name string) (sceneDir, recDir string) {
	t.Helper()
	sceneDir = filepath.Join("..", "testdata", "sim-samples", name)
	sc, err := simio.ReadScene(sceneDir)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := sim.Run(sc, nil, &sim.RunOptions{RecordEvery: 1, Contacts: true})
	if err != nil {
		t.Fatal(err)
	}
	recDir = filepath.Join(t.TempDir(), name+"-rec")
	if err := simio.WriteRecording(recDir, rec); err != nil {
		t.Fatal(err)
	}
	return sceneDir, recDir
}

// bigPile writes a scene of n dynamic bodies (the pile sample's meshes in
// turn, in a grid of cells 0.5 m wide above the sample's bin) and its
// ballistic recording of steps steps, and returns the two directories.
func bigPile(t testing.TB, n, steps int) (sceneDir, recDir string) {
	t.Helper()
	src, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "pile-b24-k180-s1"))
	if err != nil {
		t.Fatal(err)
	}
	sc := &simio.Scene{Name: fmt.Sprintf("pile-b%d-k%d-ballistic", n, steps), Kind: "pile", Gravity: src.Gravity,
		Dt: src.Dt, Steps: steps, Friction: src.Friction, Restitution: src.Restitution, Meshes: src.Meshes, Bounds: src.Bounds}
	byMesh := map[int]simio.Body{}
	for _, b := range src.Bodies {
		byMesh[b.Mesh] = b
		if b.Static {
			sc.Bodies = append(sc.Bodies, simio.Body{ID: 0, Mesh: b.Mesh, Static: true})
			sc.Initial = append(sc.Initial, src.Initial[b.ID])
		}
	}
	var dyn []int
	for m := range src.Meshes {
		if b, ok := byMesh[m]; ok && !b.Static {
			dyn = append(dyn, m)
		}
	}
	side := int(math.Ceil(math.Cbrt(float64(n))))
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < n; i++ {
		m := dyn[i%len(dyn)]
		b := byMesh[m]
		b.ID = len(sc.Bodies)
		sc.Bodies = append(sc.Bodies, b)
		x, y, z := i%side, (i/side)%side, i/(side*side)
		p := geom.Vec3{X: (float64(x) - float64(side-1)/2) * 0.5, Y: (float64(y) - float64(side-1)/2) * 0.5, Z: 2.5 + 0.5*float64(z)}
		q, _ := geom.Quat{W: rng.Float64() - 0.5, X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}.Normalize()
		sc.Initial = append(sc.Initial, simio.State{Pose: geom.Pose{P: p, Q: q},
			V: geom.Vec3{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5}})
	}
	sc.Bounds.Min.X, sc.Bounds.Min.Y = -float64(side), -float64(side)
	sc.Bounds.Max.X, sc.Bounds.Max.Y, sc.Bounds.Max.Z = float64(side), float64(side), 3+0.5*float64(side)
	dir := t.TempDir()
	sceneDir = filepath.Join(dir, "scene")
	recDir = filepath.Join(dir, "rec")
	if err := simio.WriteScene(sceneDir, sc); err != nil {
		t.Fatal(err)
	}
	back, err := simio.ReadScene(sceneDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := simio.WriteRecording(recDir, ballistic(back, steps, 1)); err != nil {
		t.Fatal(err)
	}
	return sceneDir, recDir
}
