package main

import (
	"fmt"

	"github.com/collide-go/collide/bench"
)

func runBenchMeshPairs(e *env, args []string) error {
	fs := newFlags("bench meshpairs")
	out := fs.String("out", "", "workload directory to write (required)")
	var s bench.MeshPairsSpec
	fs.StringVar(&s.A, "a", "", "model file of the static body A (required)")
	fs.StringVar(&s.B, "b", "", "model file of the moving body B (required)")
	fs.StringVar(&s.Scenario, "scenario", "approach", "approach (B comes from outside A) or fcl (B starts in A's box, as FCL's tests)")
	fs.IntVar(&s.Queries, "queries", 60, "number of motions")
	fs.Float64Var(&s.MaxRot, "rot", 45, "largest rotation of B over a motion, degrees")
	fs.Float64Var(&s.Pass, "pass", 0.5, "approach: fraction of motions passing beyond A's centre")
	fs.Float64Var(&s.Aim, "aim", 1, "approach: largest sideways aim offset, in A's radii")
	seed := fs.Uint64("seed", 9, "random seed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *out == "" || s.A == "" || s.B == "" {
		return fmt.Errorf("%w: want --out DIR --a FILE --b FILE and no positional arguments", errUsage)
	}
	if s.Queries < 1 || !(s.MaxRot > 0 && s.MaxRot <= 180) || !(s.Pass > 0 && s.Pass <= 1) || !(s.Aim > 0) {
		return fmt.Errorf("%w: need queries >= 1, 0 < rot <= 180, 0 < pass <= 1, aim > 0", errUsage)
	}
	s.Seed = *seed
	w, err := bench.GenerateMeshPairs(s, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s): %d motions of %s (%d triangles) against %s (%d triangles)\n", *out, w.Name, len(w.Queries), w.MeshNames[1], w.Meshes[1].NumFaces(), w.MeshNames[0], w.Meshes[0].NumFaces())
	return nil
}
