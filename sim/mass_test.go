package sim

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// TestMassPropertiesBox checks a moved, turned box against the closed form.
func TestMassPropertiesBox(t *testing.T) {
	h := geom.V(0.3, 0.2, 0.1)
	box := shapes.Box(h)
	pose := geom.Pose{P: geom.V(1, -2, 0.5), Q: geom.QuatAxisAngle(geom.V(1, 2, 3), 0.7)}
	verts := make([]geom.Vec3, len(box.Verts))
	for i, v := range box.Verts {
		verts[i] = pose.Apply(v)
	}
	faces := make([][]int, box.NumFaces())
	for f := range faces {
		for _, v := range box.Face(f) {
			faces[f] = append(faces[f], int(v))
		}
	}
	moved, err := mesh.New(verts, faces, nil)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := MassProperties(moved, 800)
	if err != nil {
		t.Fatal(err)
	}
	vol := 8 * h.X * h.Y * h.Z
	m := 800 * vol
	if math.Abs(mp.Volume-vol) > 1e-12 || math.Abs(mp.Mass-m) > 1e-9 || mp.Center.Dist(pose.P) > 1e-12 {
		t.Fatalf("volume %v mass %v centre %v, want %v %v %v", mp.Volume, mp.Mass, mp.Center, vol, m, pose.P)
	}
	// Closed form in the box's axes, turned into the mesh's axes.
	a, b, c := 2*h.X, 2*h.Y, 2*h.Z
	Ib := geom.Diag(geom.V(m/12*(b*b+c*c), m/12*(a*a+c*c), m/12*(a*a+b*b)))
	R := pose.Q.Mat3()
	want := R.Mul(Ib).Mul(R.Transpose())
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(mp.Inertia[i][j]-want[i][j]) > 1e-12 {
				t.Fatalf("inertia %v, want %v", mp.Inertia, want)
			}
		}
	}
}

// TestMassPropertiesSamples compares with the mass properties the sample
// scenes' generator computed (density 1000) for cubes, boxes, cars, tori
// and polytopes centred at their centres of mass.
func TestMassPropertiesSamples(t *testing.T) {
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "pile-b24-k180-s1"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, b := range sc.Bodies {
		if b.Static || seen[b.Mesh] {
			continue
		}
		seen[b.Mesh] = true
		mp, err := MassProperties(sc.Meshes[b.Mesh].Mesh, 1000)
		if err != nil {
			t.Fatal(err)
		}
		name := sc.Meshes[b.Mesh].Name
		if math.Abs(mp.Mass-b.Mass) > 1e-9*b.Mass || mp.Center.Norm() > 1e-9*sc.Meshes[b.Mesh].Mesh.Radius() {
			t.Errorf("%s: mass %v centre %v, want %v at the origin", name, mp.Mass, mp.Center, b.Mass)
		}
		scale := b.Inertia[0][0] + b.Inertia[1][1] + b.Inertia[2][2]
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if math.Abs(mp.Inertia[i][j]-b.Inertia[i][j]) > 1e-9*scale {
					t.Errorf("%s: inertia[%d][%d] = %v, want %v", name, i, j, mp.Inertia[i][j], b.Inertia[i][j])
				}
			}
		}
	}
	if len(seen) < 5 {
		t.Fatalf("only %d meshes compared", len(seen))
	}
}

func TestMassPropertiesErrors(t *testing.T) {
	if _, err := MassProperties(shapes.Cube(1), 0); err == nil {
		t.Error("zero density accepted")
	}
	open, err := mesh.New([]geom.Vec3{{}, {X: 1}, {Y: 1}}, [][]int{{0, 1, 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MassProperties(open, 1); !errors.Is(err, ErrNotSolid) {
		t.Errorf("open mesh: %v", err)
	}
}
