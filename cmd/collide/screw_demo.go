package main

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
)

func init() {
	registerDemo(demoSection{order: 40, title: "screw-motion collision detection: a torus passing through a torus (Buss Figs. 13, 14)", run: demoScrewTori})
}

// toriPoses is the demo's version of Buss's Fig. 13: torus B rests at the
// origin (ring in the xy plane); torus A, stood upright, moves away and
// upward through B's hole while turning 30 degrees.
func toriPoses() [4]geom.Pose {
	up := geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)
	a0 := geom.Pose{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: up}
	a1 := geom.Pose{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(up)}
	b := geom.PoseIdentity()
	return [4]geom.Pose{a0, a1, b, b}
}

func demoScrewTori(e *env, outDir string) error {
	tor := shapes.Torus(1, 0.35, 20, 15)
	p := toriPoses()
	d := screw.NewDetector()
	opt := &screw.Options{Properness: screw.ProperOnly}
	cs, err := d.Detect(tor, tor, p[0], p[1], p[2], p[3], opt, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "torus A (300 faces) moves through torus B: %d proper collisions (properness >= 0):\n", len(cs))
	for _, c := range cs {
		fmt.Fprintln(e.stdout, " ", c)
	}
	all, _ := d.Detect(tor, tor, p[0], p[1], p[2], p[3], &screw.Options{}, nil)
	fmt.Fprintf(e.stdout, "with Buss's threshold -0.1: %d collisions\n", len(all))
	path := filepath.Join(outDir, "screw-tori-screen.png")
	n, err := writeScreen(path, tor, tor, p, &screw.Options{PixelsPerEdge: 6})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "collision screen (low resolution, %d collisions marked): %s\n", n, path)
	return nil
}
