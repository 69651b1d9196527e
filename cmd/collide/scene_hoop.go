package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/collide-go/collide/cable"
	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/internal/demo/hoop"
)

func init() {
	registerDemo(demoSection{order: 30, title: "cables through a basketball hoop and net: ccd contacts and impulses (Jansen, Secs. 3.5, 3.7, 4)", run: demoHoop})
}

func runSceneHoop(e *env, args []string) error {
	fs := newFlags("scene hoop")
	asJSON := fs.Bool("json", false, "print one JSON object")
	steps := fs.Int("steps", 600, "number of frames (time steps)")
	dt := fs.Float64("dt", cable.DefaultDt, "time step in seconds (semi-implicit Euler, in substeps within the springs' stable step)")
	cables := fs.Int("cables", 8, "number of cables")
	segs := fs.Int("segments", 24, "springs per cable")
	method := fs.String("method", "", "ccd method: inclusion (default, conservative) or cubic (Jansen's closed form)")
	seed := fs.Uint64("seed", 1, "seed of the cables' placement")
	svg := fs.String("svg", "", "write a side view of the final configuration to this SVG file")
	quiet := fs.Bool("quiet", false, "no progress output")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *steps < 0 || *steps > 1e7 {
		return usagef("--steps %d out of range [0, 1e7]", *steps)
	}
	if !(*dt > 0) || *dt > 1 {
		return usagef("--dt %v must be in (0, 1]", *dt)
	}
	if *cables <= 0 {
		return usagef("--cables %d must be positive", *cables)
	}
	m, err := ccd.ParseMethod(*method)
	if err != nil {
		return usagef("%v", err)
	}
	h := hoop.Config{Cables: *cables, Segments: *segs, Seed: *seed, Options: cable.Options{Dt: *dt, Method: m}}
	if _, _, err := hoop.New(h); err != nil {
		return usagef("%v", err)
	}
	p := newProgress(e.stderr, *quiet || *asJSON, "scene hoop")
	r, s, err := hoop.Run(h, *steps, p.update)
	p.done()
	if err != nil {
		return err
	}
	if *svg != "" {
		if err := writeHoopSVG(s, *svg, r); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(e.stdout, r)
	}
	printHoop(e, r)
	if *svg != "" {
		fmt.Fprintf(e.stdout, "wrote %s\n", *svg)
	}
	return nil
}

func writeHoopSVG(s *cable.System, path string, r hoop.Result) error {
	title := fmt.Sprintf("hoop after %d frames (%.2f s): %d edges, %d contacts, %d crossings", r.Frames, r.SimulatedSeconds, r.Edges, r.Contacts, r.Penetrations)
	return createFile(path, func(w io.Writer) error {
		return s.WriteSVG(w, cable.View{MinX: -1.2, MaxX: 1.2, MinZ: -0.05, MaxZ: 4.3, Width: 480, Title: title})
	})
}

func printHoop(e *env, r hoop.Result) {
	fmt.Fprintf(e.stdout, "hoop scene: %d edges (%d cable, %d net, %d rim), %d static triangles, %d particles; ccd %s\n",
		r.Edges, r.CableEdges, r.NetEdges, r.RimEdges, r.Triangles, r.Particles, r.Method)
	fmt.Fprintf(e.stdout, "%d frames of %g s (%d substeps; %.3g s simulated) in %.3g s: %.3g ms per frame, %.4g frames per second (paper: %g)\n",
		r.Frames, r.Dt, r.Substeps, r.SimulatedSeconds, r.WallSeconds, r.MsPerFrame, r.FramesPerSecond, r.PaperFPS)
	fmt.Fprintf(e.stdout, "contacts %d (%.3g per frame), ccd queries %d, hits %d, max rounds %d, frozen %d\n",
		r.Contacts, r.ContactsPerFrame, r.Queries, r.Hits, r.MaxRounds, r.Frozen)
	fmt.Fprintf(e.stdout, "penetrations found by the independent check: %d (check took %.3g s, not timed)\n", r.Penetrations, r.VerifySeconds)
	fmt.Fprintf(e.stdout, "cables through the net %d, caught on hoop/net/board %d; energy %.4g J -> %.4g J (max %.4g J)\n",
		r.CablesThrough, r.CablesCaught, r.EnergyStart, r.EnergyEnd, r.EnergyMax)
}

func demoHoop(e *env, outDir string) error {
	r, s, err := hoop.Run(hoop.Config{}, 500, nil)
	if err != nil {
		return err
	}
	printHoop(e, r)
	path := filepath.Join(outDir, "cable_hoop.svg")
	if err := writeHoopSVG(s, path, r); err != nil {
		return err
	}
	// A close-up of the rim and the net.
	zoom := filepath.Join(outDir, "cable_hoop_net.svg")
	err = createFile(zoom, func(w io.Writer) error {
		return s.WriteSVG(w, cable.View{MinX: -0.45, MaxX: 0.45, MinZ: 2.55, MaxZ: 3.2, Width: 480, Title: "rim and net, seen from the front"})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s and %s\n", path, zoom)
	return nil
}
