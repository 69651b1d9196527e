package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// Commands "query intersect", "query distance" and "query contacts":
// discrete queries between two meshes at two poses (package meshquery).

// queryInput is what every query command reads: two trees and two poses.
type queryInput struct {
	a, b   *meshquery.Tree
	ta, tb geom.Transform
}

// queryArgs are the flags every query command has.
type queryArgs struct {
	pa, pb *string
	asJSON *bool
}

func queryFlags(fs *flag.FlagSet) *queryArgs {
	return &queryArgs{
		pa:     fs.String("a", "0,0,0", "pose of A: px,py,pz[,qw,qx,qy,qz]"),
		pb:     fs.String("b", "", "pose of B (required)"),
		asJSON: fs.Bool("json", false, "print JSON"),
	}
}

// parse parses the command line into fs; check, if not nil, validates the
// command's own flags before the meshes are read and their trees built.
func (qa *queryArgs) parse(fs *flag.FlagSet, args []string, check func() error) (*queryInput, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	if err := wantTwoMeshes(pos); err != nil {
		return nil, err
	}
	if *qa.pb == "" {
		return nil, usagef("--b is required")
	}
	var p [2]geom.Pose
	if err := parsePoses(p[:], []string{"a", "b"}, *qa.pa, *qa.pb); err != nil {
		return nil, err
	}
	a, b, err := loadTwoMeshes(pos)
	if err != nil {
		return nil, err
	}
	in := &queryInput{ta: p[0].Transform(), tb: p[1].Transform()}
	if in.a, err = meshquery.New(a); err != nil {
		return nil, fmt.Errorf("%s: %w", pos[0], err)
	}
	if in.b, err = meshquery.New(b); err != nil {
		return nil, fmt.Errorf("%s: %w", pos[1], err)
	}
	return in, nil
}

func runQueryIntersect(e *env, args []string) error {
	fs := newFlags("query intersect")
	qa := queryFlags(fs)
	limit := fs.Int("pairs", 0, "list at most N intersecting triangle pairs (0: all)")
	in, err := qa.parse(fs, args, func() error {
		if *limit < 0 {
			return usagef("--pairs must not be negative")
		}
		return nil
	})
	if err != nil {
		return err
	}
	var q meshquery.Scratch
	pairs, err := q.AppendPairs(in.a, &in.ta, in.b, &in.tb, nil, *limit)
	if err != nil {
		return err
	}
	if *qa.asJSON {
		ps := make([][2]int32, len(pairs))
		for i, p := range pairs {
			ps[i] = [2]int32{p.A, p.B}
		}
		return writeJSON(e.stdout, struct {
			Hit   bool       `json:"hit"`
			Pairs [][2]int32 `json:"pairs"`
		}{len(pairs) > 0, ps})
	}
	if len(pairs) == 0 {
		fmt.Fprintln(e.stdout, "no intersection")
		return nil
	}
	fmt.Fprintf(e.stdout, "intersect: %d triangle pairs (triangle of A, triangle of B)\n", len(pairs))
	for _, p := range pairs {
		fmt.Fprintf(e.stdout, "  %d %d\n", p.A, p.B)
	}
	return nil
}

func vec3(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func runQueryDistance(e *env, args []string) error {
	fs := newFlags("query distance")
	qa := queryFlags(fs)
	maxD := fs.Float64("max", 0, "stop the search at this distance (0: none)")
	in, err := qa.parse(fs, args, func() error {
		if !(*maxD >= 0) || math.IsInf(*maxD, 0) {
			return usagef("--max must be finite and not negative")
		}
		return nil
	})
	if err != nil {
		return err
	}
	var q meshquery.Scratch
	r, err := q.Distance(in.a, &in.ta, in.b, &in.tb, &meshquery.DistOptions{MaxDist: *maxD})
	if err != nil {
		return err
	}
	if *qa.asJSON {
		out := map[string]any{"hit": r.Hit}
		if !math.IsInf(r.Dist, 0) {
			out["dist"] = r.Dist
			out["point_a"], out["point_b"] = vec3(r.PointA), vec3(r.PointB)
			out["triangle_a"], out["triangle_b"] = r.TriA, r.TriB
			out["feature_a"], out["feature_b"] = r.FeatureA.String(), r.FeatureB.String()
		}
		return writeJSON(e.stdout, out)
	}
	switch {
	case r.Hit:
		fmt.Fprintf(e.stdout, "intersect at %v (triangle %d of A, %d of B)\n", r.PointA, r.TriA, r.TriB)
	case math.IsInf(r.Dist, 0):
		fmt.Fprintf(e.stdout, "farther apart than %g\n", *maxD)
	default:
		fmt.Fprintf(e.stdout, "distance %.17g\n  A: %v on triangle %d (%v)\n  B: %v on triangle %d (%v)\n",
			r.Dist, r.PointA, r.TriA, r.FeatureA, r.PointB, r.TriB, r.FeatureB)
	}
	return nil
}

type contactJSON struct {
	Status     string     `json:"status"`
	Point      [3]float64 `json:"point"`
	Normal     [3]float64 `json:"normal"`
	Separation float64    `json:"separation"`
	FeatureA   string     `json:"feature_a"`
	FeatureB   string     `json:"feature_b"`
	ID         uint64     `json:"id"`
}

func runQueryContacts(e *env, args []string) error {
	fs := newFlags("query contacts")
	qa := queryFlags(fs)
	margin := fs.Float64("margin", 0, "report features closer than this as near contacts")
	maxN := fs.Int("max-contacts", 0, fmt.Sprintf("at most this many records (default %d)", meshquery.DefaultMaxContacts))
	in, err := qa.parse(fs, args, func() error {
		if !(*margin >= 0) || math.IsInf(*margin, 0) || *maxN < 0 {
			return usagef("--margin must be finite and not negative, --max-contacts not negative")
		}
		return nil
	})
	if err != nil {
		return err
	}
	var q meshquery.Scratch
	cs, err := q.Contacts(in.a, &in.ta, in.b, &in.tb, &meshquery.ContactOptions{Margin: *margin, MaxContacts: *maxN}, nil)
	if err != nil {
		return err
	}
	if *qa.asJSON {
		out := make([]contactJSON, len(cs))
		for i, c := range cs {
			out[i] = contactJSON{c.Status.String(), vec3(c.Point), vec3(c.Normal), c.Separation, c.FeatureA.String(), c.FeatureB.String(), c.ID()}
		}
		return writeJSON(e.stdout, struct {
			Contacts []contactJSON `json:"contacts"`
		}{out})
	}
	if len(cs) == 0 {
		fmt.Fprintln(e.stdout, "no contacts")
		return nil
	}
	for _, c := range cs {
		fmt.Fprintln(e.stdout, contactLine(c))
	}
	return nil
}

func contactLine(c contact.Contact) string {
	return fmt.Sprintf("%-11v sep %-12.6g point %v normal %v  %v / %v", c.Status, c.Separation, c.Point, c.Normal, c.FeatureA, c.FeatureB)
}
