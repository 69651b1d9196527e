package main

import (
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
)

// Commands "screw" and "screen": screw-motion continuous collision detection
// (Buss, "Collision Detection with Relative Screw Motion") of two meshes
// between start and end poses.

// screwArgs are the flags shared by "screw" and "screen".
type screwArgs struct {
	a0, a1, b0, b1 *string
	pixel, ppe     *float64
	prop           *float64
	cons           *bool
	twoSided       *bool
	restMargin     *float64
}

func screwFlags(fs *flag.FlagSet) *screwArgs {
	return &screwArgs{
		a0:         fs.String("a0", "0,0,0", "pose of A at t=0: px,py,pz[,qw,qx,qy,qz]"),
		a1:         fs.String("a1", "", "pose of A at t=1 (default: a0)"),
		b0:         fs.String("b0", "", "pose of B at t=0 (required)"),
		b1:         fs.String("b1", "", "pose of B at t=1 (required)"),
		pixel:      fs.Float64("pixel", 0, "collision-screen pixel size in length units (default: typical short edge / ppe)"),
		ppe:        fs.Float64("ppe", 0, "pixels per typical short edge (6 low, 12 medium (default), 24 high)"),
		prop:       fs.Float64("properness", 0, "drop collisions with properness below this (default -0.1; -2 keeps all)"),
		cons:       fs.Bool("conservative", false, "also report features that come within one pixel (near misses)"),
		twoSided:   fs.Bool("two-sided", false, "treat every face as two-sided (automatic for open or inconsistently wound meshes)"),
		restMargin: fs.Float64("rest-margin", 0, "report feature pairs within this distance at the start poses as resting contacts (default: touching or overlapping only)"),
	}
}

// loadScrewMesh returns a built-in shape (cube, car, torus, coil) or reads a
// mesh file.
func loadScrewMesh(name string) (*mesh.Mesh, error) {
	switch name {
	case "cube":
		return shapes.Cube(1), nil
	case "car":
		return shapes.Car(), nil
	case "torus":
		return shapes.Torus(1, 0.35, 20, 15), nil
	case "coil":
		return shapes.Coil(1, 0.1, 0.5, 6, 16, 6), nil
	}
	m, err := meshio.ReadFile(name, nil)
	if err != nil {
		return nil, fmt.Errorf("mesh %q (not a file or one of cube, car, torus, coil): %w", name, err)
	}
	return m, nil
}

// screwInput is what "screw" and "screen" read from their command line.
type screwInput struct {
	names [2]string // MESH_A and MESH_B as given
	a, b  *mesh.Mesh
	p     [4]geom.Pose // a0, a1, b0, b1
	opt   screw.Options
}

// parse parses the command line into fs and loads the meshes and poses.
func (sa *screwArgs) parse(fs *flag.FlagSet, args []string) (*screwInput, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if err := wantTwoMeshes(pos); err != nil {
		return nil, err
	}
	if *sa.b0 == "" || *sa.b1 == "" {
		return nil, usagef("--b0 and --b1 are required")
	}
	if *sa.a1 == "" {
		*sa.a1 = *sa.a0
	}
	in := &screwInput{names: [2]string(pos)}
	if err := parsePoses(in.p[:], []string{"a0", "a1", "b0", "b1"}, *sa.a0, *sa.a1, *sa.b0, *sa.b1); err != nil {
		return nil, err
	}
	if in.a, in.b, err = loadTwoMeshes(pos); err != nil {
		return nil, err
	}
	for _, x := range []float64{*sa.pixel, *sa.ppe, *sa.prop, *sa.restMargin} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < -2 && x != *sa.prop {
			return nil, usagef("numeric flags must be finite")
		}
	}
	if *sa.pixel < 0 || *sa.ppe < 0 || *sa.restMargin < 0 {
		return nil, usagef("--pixel, --ppe and --rest-margin must not be negative")
	}
	in.opt = screw.Options{PixelSize: *sa.pixel, PixelsPerEdge: *sa.ppe, Properness: *sa.prop, Conservative: *sa.cons, TwoSided: *sa.twoSided, RestMargin: *sa.restMargin}
	return in, nil
}

// wantTwoMeshes checks that the positional arguments are MESH_A MESH_B.
func wantTwoMeshes(pos []string) error {
	if len(pos) != 2 {
		return usagef("want two meshes MESH_A MESH_B, got %d arguments", len(pos))
	}
	return nil
}

// loadTwoMeshes loads MESH_A and MESH_B (loadScrewMesh).
func loadTwoMeshes(pos []string) (a, b *mesh.Mesh, err error) {
	if a, err = loadScrewMesh(pos[0]); err != nil {
		return nil, nil, err
	}
	if b, err = loadScrewMesh(pos[1]); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// parsePoses parses the values of the pose flags named flags into dst.
func parsePoses(dst []geom.Pose, flags []string, values ...string) error {
	for i, s := range values {
		p, err := geom.ParsePose(s)
		if err != nil {
			return usagef("--%s: %v", flags[i], err)
		}
		dst[i] = p
	}
	return nil
}

type screwJSON struct {
	Kind       string     `json:"kind"`
	Time       float64    `json:"time"`
	Point      [3]float64 `json:"point"`
	Normal     [3]float64 `json:"normal"`
	Properness float64    `json:"properness"`
	FeatureA   int32      `json:"feature_a"`
	FeatureB   int32      `json:"feature_b"`
	Near       bool       `json:"near,omitempty"`
	Resting    bool       `json:"resting,omitempty"`
	Status     string     `json:"status"`     // the shared record's: hit, touching, penetrating, near
	Separation float64    `json:"separation"` // signed distance of the features at time
}

func runScrew(e *env, args []string) error {
	fs := newFlags("screw")
	sa := screwFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	html := fs.String("html", "", "also write a 3D viewer of the motion with its collisions as one HTML file")
	in, err := sa.parse(fs, args)
	if err != nil {
		return err
	}
	p := in.p
	d := screw.NewDetector()
	cs, err := d.Detect(in.a, in.b, p[0], p[1], p[2], p[3], &in.opt, nil)
	if err != nil {
		return err
	}
	if *html != "" {
		if err := writeScrewHTML(e, *html, in.names[:], in.a, in.b, p, cs); err != nil {
			return err
		}
	}
	m := screw.Relative(p[0], p[1], p[2], p[3])
	if *asJSON {
		out := struct {
			Theta      float64     `json:"theta"` // radians
			Glide      float64     `json:"glide"`
			Collisions []screwJSON `json:"collisions"`
		}{Theta: m.Theta, Glide: m.G, Collisions: []screwJSON{}}
		for _, c := range cs {
			out.Collisions = append(out.Collisions, screwJSON{c.Kind.String(), c.Time,
				[3]float64{c.Point.X, c.Point.Y, c.Point.Z}, [3]float64{c.Normal.X, c.Normal.Y, c.Normal.Z},
				c.Properness, c.FeatureA, c.FeatureB, c.Near, c.Resting, c.Record().Status.String(), c.Separation})
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "relative screw motion: rotation %.4g deg, glide %.4g (screw-assumption error estimate %.3g%%)\n",
		m.Theta*180/math.Pi, m.G, 100*screw.ErrorEstimate(m.Theta))
	if len(cs) == 0 {
		fmt.Fprintln(e.stdout, "no collision")
		return nil
	}
	fmt.Fprintf(e.stdout, "%d collisions (A feature, B feature; VF = vertex of A on face of B, FV = face of A, vertex of B):\n", len(cs))
	for _, c := range cs {
		fmt.Fprintln(e.stdout, " ", c)
	}
	return nil
}

func runScreen(e *env, args []string) error {
	fs := newFlags("screen")
	sa := screwFlags(fs)
	out := fs.String("o", "screen.png", "output PNG file")
	in, err := sa.parse(fs, args)
	if err != nil {
		return err
	}
	n, err := writeScreen(*out, in.a, in.b, in.p, &in.opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d collisions marked)\n", *out, n)
	return nil
}

func writeScreen(path string, a, b *mesh.Mesh, p [4]geom.Pose, opt *screw.Options) (int, error) {
	d := screw.NewDetector()
	img, cs, err := d.ScreenImage(a, b, p[0], p[1], p[2], p[3], opt, nil)
	if err != nil {
		return 0, err
	}
	return len(cs), createFile(path, func(w io.Writer) error { return png.Encode(w, img) })
}
