package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/collide-go/collide/internal/demo/bullets"
	"github.com/collide-go/collide/toc"
)

func init() {
	registerDemo(demoSection{order: 60, title: "time of contact: 100 bullets against a warped plane with a hole (the contact paper, Sec. 4)", run: demoBullets})
}

func sceneAlgorithm(n int) (toc.Method, error) {
	switch n {
	case 2:
		return toc.Boxes, nil
	case 3:
		return toc.Segments, nil
	}
	return 0, usagef("--alg must be 2 (boxes) or 3 (segments), got %d", n)
}

func runSceneBullets(e *env, args []string) error {
	fs := newFlags("scene bullets")
	asJSON := fs.Bool("json", false, "print one JSON object")
	dt := fs.Float64("dt", 0.1, "time step in seconds (explicit Euler)")
	alg := fs.Int("alg", 2, "2: Algorithm 2 (oriented boxes, misses nothing); 3: Algorithm 3 (segments)")
	n := fs.Int("bullets", 100, "number of bullets")
	secs := fs.Float64("seconds", 1, "simulated time in seconds")
	tol := fs.Float64("tol", 1e-5, "trajectory tolerance epsilon in metres")
	rest := fs.Float64("restitution", 0.2, "coefficient of restitution of the impacts")
	seed := fs.Uint64("seed", 1, "seed of the bullets' targets")
	quiet := fs.Bool("quiet", false, "no progress output")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	a, err := sceneAlgorithm(*alg)
	if err != nil {
		return err
	}
	switch {
	case !(*dt > 0 && *dt <= bullets.MaxDt):
		return usagef("--dt %v must be in (0, %d]", *dt, bullets.MaxDt)
	case !(*secs > 0) || math.IsInf(*secs, 0):
		return usagef("--seconds %v must be positive and finite", *secs)
	case *n <= 0:
		return usagef("--bullets %d must be positive", *n)
	case !(*tol > 0) || math.IsInf(*tol, 0):
		return usagef("--tol %v must be positive and finite", *tol)
	}
	s, err := bullets.New(&bullets.Config{Bullets: *n, Dt: *dt, Seconds: *secs, Algorithm: a, Tolerance: *tol, Restitution: *rest, Seed: *seed})
	if err != nil {
		return usagef("%v", err)
	}
	steps := int(*secs / *dt + 0.5)
	p := newProgress(e.stderr, *quiet || *asJSON, "scene bullets")
	for i := 0; i < steps; i++ {
		if err := s.Step(); err != nil {
			p.done()
			return err
		}
		p.update(i+1, steps)
	}
	p.done()
	r := s.Result()
	if *asJSON {
		return writeJSON(e.stdout, r)
	}
	printBullets(e, r)
	return nil
}

func printBullets(e *env, r bullets.Result) {
	fmt.Fprintf(e.stdout, "%d bullets, %s (Algorithm %d), dt %g s, %d steps, tolerance %g m\n",
		r.Bullets, r.Algorithm, map[string]int{"boxes": 2, "segments": 3}[r.Algorithm], r.Dt, r.Steps, r.Tolerance)
	fmt.Fprintf(e.stdout, "simulated %.3g s in %.3g s wall: %.3g s wall per simulated second (paper: 201 s)\n",
		r.SimulatedSeconds, r.WallSeconds, r.WallSecondsPerSimulatedSecond)
	fmt.Fprintf(e.stdout, "contacts %d (bullets hit %d, %d found from the plane's points), through the hole %d, tunnelled %d, penetrated %d, stopped %d\n",
		r.Contacts, r.BulletsHit, r.PlanePointContacts, r.ThroughHole, r.Tunneled, r.Penetrated, r.Stopped)
	fmt.Fprintf(e.stdout, "narrow-phase queries %d in world steps after the broad phase on swept boxes (the paper's enlarged OBBs pass %d bullet-steps); audit (not timed) %.3g s\n",
		r.NarrowQueries, r.EnlargedOBBPairs, r.AuditSeconds)
}

func demoBullets(e *env, outDir string) error {
	for _, a := range []toc.Method{toc.Boxes, toc.Segments} {
		s, err := bullets.New(&bullets.Config{Algorithm: a})
		if err != nil {
			return err
		}
		r, err := s.Run()
		if err != nil {
			return err
		}
		printBullets(e, r)
		if a != toc.Boxes {
			continue
		}
		name := filepath.Join(outDir, "toc-bullets.svg")
		if err := writeFile(name, bulletsSVG(s, r)); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %s (the plane seen from the guns: contacts red, passes through the hole green)\n", name)
	}
	return nil
}

// bulletsSVG draws the plane seen along +x (y to the right, z up) with its
// triangles, the contact points and the points where bullets went through
// the hole.
func bulletsSVG(s *bullets.Scene, r bullets.Result) []byte {
	const size, m = 640.0, 1.1 // pixels, metres shown from the centre
	px := func(y, z float64) (float64, float64) { return (y + m) / (2 * m) * size, (m - z) / (2 * m) * size }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g">`+"\n", size, size+48, size, size+48)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for _, t := range s.Outline() {
		var pts []string
		for _, v := range t {
			x, y := px(v.Y, v.Z)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="#dde3ea" stroke="#b8c2cc" stroke-width="0.4"/>`+"\n", strings.Join(pts, " "))
	}
	for _, p := range s.ContactPoints() {
		x, y := px(p.Y, p.Z)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="#d62728"/>`+"\n", x, y)
	}
	for _, p := range s.HolePoints() {
		x, y := px(p.Y, p.Z)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="#2ca02c"/>`+"\n", x, y)
	}
	fmt.Fprintf(&b, `<text x="10" y="%g" font-family="sans-serif" font-size="13">%d bullets at 1000 m/s, dt %g s: %d contacts (red), %d through the hole (green), %d tunnelled;</text>`+"\n",
		size+20, r.Bullets, r.Dt, r.Contacts, r.ThroughHole, r.Tunneled)
	fmt.Fprintf(&b, `<text x="10" y="%g" font-family="sans-serif" font-size="13">%.3g s wall per simulated second</text>`+"\n",
		size+38, r.WallSecondsPerSimulatedSecond)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}
