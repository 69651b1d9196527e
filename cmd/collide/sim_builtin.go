package main

import (
	"fmt"
	"path/filepath"

	"github.com/collide-go/collide/sim"
	"github.com/collide-go/collide/simio"
)

func init() {
	registerDemo(demoSection{order: 80, title: "sim: a pile of cubes, cars, tori and polytopes falling into a bin, and a chain of tori (built-in scenes, simulated and recorded)", run: demoSim})
}

func builtinScene(kind string, bodies, steps int, seed uint64) (*simio.Scene, error) {
	switch kind {
	case "pile":
		if bodies == 0 {
			bodies = 24
		}
		if steps == 0 {
			steps = 180
		}
		return sim.PileScene(bodies, steps, seed)
	case "chain":
		if bodies == 0 {
			bodies = 6
		}
		if steps == 0 {
			steps = 240
		}
		return sim.ChainScene(bodies, steps)
	}
	return nil, usagef("sim builtin: unknown scene %q (pile or chain)", kind)
}

func runSimBuiltin(e *env, args []string) error {
	fs := newFlags("sim builtin")
	out := fs.String("out", "", "scene directory to write")
	bodies := fs.Int("bodies", 0, "bodies (pile, default 24) or links (chain, default 6)")
	steps := fs.Int("steps", 0, "steps to simulate (default 180 for the pile, 240 for the chain)")
	seed := fs.Uint64("seed", 1, "random seed (pile)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *out == "" {
		return usagef("sim builtin needs pile or chain and --out SCENE_DIR")
	}
	if *bodies < 0 || *steps < 0 {
		return usagef("--bodies and --steps must not be negative")
	}
	sc, err := builtinScene(pos[0], *bodies, *steps, *seed)
	if err != nil {
		return err
	}
	if err := simio.WriteScene(*out, sc); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d bodies, %d steps, written to %s\n", sc.Name, len(sc.Bodies), sc.Steps, *out)
	return nil
}

func demoSim(e *env, outDir string) error {
	for _, kind := range []string{"pile", "chain"} {
		sc, err := builtinScene(kind, 0, 0, 1)
		if err != nil {
			return err
		}
		dir := filepath.Join(outDir, "sim-"+kind)
		if err := simio.WriteScene(filepath.Join(dir, "scene"), sc); err != nil {
			return err
		}
		// Read back, as any engine would.
		sc, err = simio.ReadScene(filepath.Join(dir, "scene"))
		if err != nil {
			return err
		}
		sum, err := simulateScene(e, sc, filepath.Join(dir, "recording"), &sim.Options{Workers: 1}, 1, true, true)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %d bodies, %d steps, %.2f ms per step, %.0f contacts per step, deepest overlap %.2g m; scene and recording in %s\n",
			sum.Scene, len(sc.Bodies), sum.Steps, sum.NsPerStep/1e6, sum.ContactsPerStep, sum.MaxDepthM, dir)
	}
	return nil
}
