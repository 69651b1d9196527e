package main

import (
	"fmt"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

func init() {
	registerDemo(demoSection{order: 0, title: "built-in shapes and their topology", run: demoShapes})
}

func demoShapes(e *env, _ string) error {
	shapes := []struct {
		name string
		m    *mesh.Mesh
	}{
		{"cube", shapes.Cube(1)},
		{"car (Buss Fig. 12)", shapes.Car()},
		{"torus 20x15 (Buss)", shapes.Torus(1, 0.35, 20, 15)},
	}
	fmt.Fprintf(e.stdout, "%-22s %6s %6s %6s %7s %9s %7s %7s\n", "shape", "verts", "edges", "faces", "closed", "manifold", "convex", "euler")
	for _, s := range shapes {
		m := s.m
		fmt.Fprintf(e.stdout, "%-22s %6d %6d %6d %7v %9v %7v %7d\n", s.name, m.NumVerts(), m.NumEdges(), m.NumFaces(), m.Closed(), m.Manifold(), m.Convex(), m.Euler())
	}
	return nil
}
