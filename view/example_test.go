package view_test

import (
	"bytes"
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/view"
)

// A cube falling onto a static slab, written as a self-contained viewer page:
// one mesh per shape, one pose per body and frame, the contact as a marker.
func ExampleWriteHTML() {
	s := &view.Scene{
		Title:    "a falling cube",
		TimeUnit: "s",
		Meshes:   []view.Mesh{{Name: "cube", Mesh: shapes.Cube(1)}, {Name: "slab", Mesh: shapes.Box(geom.Vec3{X: 2, Y: 2, Z: 0.25})}},
		Bodies:   []view.Body{{Mesh: 0}, {Mesh: 1, Static: true}},
		Figures:  []string{"contacts"},
	}
	slab := geom.Pose{P: geom.Vec3{Z: -0.25}, Q: geom.QuatIdentity()}
	for i := 0; i <= 10; i++ {
		t := float64(i) / 10
		z := 2 - 1.5*t // the cube's centre; its bottom face reaches the slab at t = 1
		f := view.Frame{Time: t, Step: i, Figures: []float64{0},
			Poses: []geom.Pose{{P: geom.Vec3{Z: z}, Q: geom.QuatIdentity()}, slab}}
		if i == 10 {
			f.Markers = []view.Marker{{A: 1, B: 0, Point: geom.Vec3{}, Normal: geom.Vec3{Z: 1}, Time: t}}
			f.Figures[0] = 1
		}
		s.Frames = append(s.Frames, f)
	}
	var page bytes.Buffer
	if err := view.WriteHTML(&page, s); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bytes.Contains(page.Bytes(), []byte("<title>a falling cube · collide view</title>")))
	// Output: true
}
