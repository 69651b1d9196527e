package main

import (
	"fmt"

	"github.com/collide-go/collide/bench"
)

func runBenchGen(e *env, args []string) error {
	fs := newFlags("bench gen")
	out := fs.String("out", "", "workload directory to write (required)")
	var s bench.FramesSpec
	fs.IntVar(&s.Bodies, "bodies", 500, "number of bodies")
	fs.IntVar(&s.Verts, "verts", 10, "vertices per polytope")
	fs.IntVar(&s.Frames, "frames", 40, "number of frames")
	fs.StringVar(&s.Shape, "shape", "mixed", "polytope shape: mixed, ellipsoid, rod or plate")
	fs.Float64Var(&s.Density, "density", 0.05, "total polytope volume over box volume")
	fs.Float64Var(&s.Speed, "speed", 0.05, "translation per frame, fraction of the radius")
	fs.Float64Var(&s.RotDeg, "rot", 10, "rotation per frame, degrees")
	seed := fs.Uint64("seed", 7, "random seed")
	expected := fs.Bool("expected", true, "write reference answers to expected/ (exact SAT margins)")
	maxNarrow := fs.Int("max-narrow", 0, "judge at most this many narrow pairs (0: all)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *out == "" {
		return usagef("want --out DIR and no positional arguments")
	}
	if s.Bodies < 2 || s.Frames < 1 || s.Verts < 4 || !(s.Density > 0 && s.Density < 1) || !(s.Speed >= 0) || !(s.RotDeg >= 0) {
		return usagef("need bodies >= 2, frames >= 1, verts >= 4, 0 < density < 1, speed and rot >= 0")
	}
	s.Seed = *seed
	w, err := bench.GenerateFrames(s)
	if err != nil {
		return err
	}
	if err := bench.Save(w, *out, *expected, *maxNarrow); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s): %d bodies of %d vertices, %d frames\n", *out, w.Name, len(w.BodyMesh), s.Verts, w.Frames)
	return nil
}
