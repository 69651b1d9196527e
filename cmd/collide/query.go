package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// Commands "query intersect", "query distance" and "query contacts":
// discrete queries between two meshes at two poses (package meshquery).

func init() {
	register(&command{
		name:    "query intersect",
		args:    "[--json] [--pairs N] MESH_A MESH_B --a POSE --b POSE",
		summary: "do two mesh surfaces intersect at these poses (exact triangle tests), and which triangle pairs",
		run:     runQueryIntersect,
	})
	register(&command{
		name:    "query distance",
		args:    "[--json] [--max D] MESH_A MESH_B --a POSE --b POSE",
		summary: "distance between two mesh surfaces with closest points, triangles and features",
		run:     runQueryDistance,
	})
	register(&command{
		name:    "query contacts",
		args:    "[--json] [--margin M] [--max-contacts N] MESH_A MESH_B --a POSE --b POSE",
		summary: "contact records of two meshes at rest: penetration depths of closed bodies, near and touching features",
		run:     runQueryContacts,
	})
}

// queryInput is what every query command reads: two trees and two poses.
type queryInput struct {
	a, b   *meshquery.Tree
	ta, tb geom.Transform
}

func queryFlags(fs *flag.FlagSet) (pa, pb *string, asJSON *bool) {
	return fs.String("a", "0,0,0", "pose of A: px,py,pz[,qw,qx,qy,qz]"),
		fs.String("b", "", "pose of B (required)"),
		fs.Bool("json", false, "print JSON")
}

func loadQuery(pos []string, pa, pb string) (*queryInput, error) {
	if len(pos) != 2 {
		return nil, fmt.Errorf("%w: want two meshes MESH_A MESH_B, got %d arguments", errUsage, len(pos))
	}
	if pb == "" {
		return nil, fmt.Errorf("%w: --b is required", errUsage)
	}
	in := &queryInput{}
	for i, s := range []string{pa, pb} {
		p, err := geom.ParsePose(s)
		if err != nil {
			return nil, fmt.Errorf("%w: --%s: %v", errUsage, [2]string{"a", "b"}[i], err)
		}
		m, err := loadScrewMesh(pos[i])
		if err != nil {
			return nil, err
		}
		t, err := meshquery.New(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pos[i], err)
		}
		if i == 0 {
			in.a, in.ta = t, p.Transform()
		} else {
			in.b, in.tb = t, p.Transform()
		}
	}
	return in, nil
}

func runQueryIntersect(e *env, args []string) error {
	fs := newFlags("query intersect")
	pa, pb, asJSON := queryFlags(fs)
	limit := fs.Int("pairs", 0, "list at most N intersecting triangle pairs (0: all)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *limit < 0 {
		return fmt.Errorf("%w: --pairs must not be negative", errUsage)
	}
	in, err := loadQuery(pos, *pa, *pb)
	if err != nil {
		return err
	}
	var q meshquery.Query
	pairs, err := q.AppendPairs(in.a, &in.ta, in.b, &in.tb, nil, *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		ps := make([][2]int32, len(pairs))
		for i, p := range pairs {
			ps[i] = [2]int32{p.A, p.B}
		}
		return json.NewEncoder(e.stdout).Encode(struct {
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
	pa, pb, asJSON := queryFlags(fs)
	maxD := fs.Float64("max", 0, "stop the search at this distance (0: none)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if !(*maxD >= 0) || math.IsInf(*maxD, 0) {
		return fmt.Errorf("%w: --max must be finite and not negative", errUsage)
	}
	in, err := loadQuery(pos, *pa, *pb)
	if err != nil {
		return err
	}
	var q meshquery.Query
	r, err := q.Distance(in.a, &in.ta, in.b, &in.tb, &meshquery.DistOptions{MaxDist: *maxD})
	if err != nil {
		return err
	}
	if *asJSON {
		out := map[string]any{"hit": r.Hit}
		if !math.IsInf(r.Dist, 0) {
			out["dist"] = r.Dist
			out["point_a"], out["point_b"] = vec3(r.PointA), vec3(r.PointB)
			out["triangle_a"], out["triangle_b"] = r.TriA, r.TriB
			out["feature_a"], out["feature_b"] = r.FeatureA.String(), r.FeatureB.String()
		}
		return json.NewEncoder(e.stdout).Encode(out)
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
	pa, pb, asJSON := queryFlags(fs)
	margin := fs.Float64("margin", 0, "report features closer than this as near contacts")
	maxN := fs.Int("max-contacts", 0, fmt.Sprintf("at most this many records (default %d)", meshquery.DefaultMaxContacts))
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if !(*margin >= 0) || math.IsInf(*margin, 0) || *maxN < 0 {
		return fmt.Errorf("%w: --margin must be finite and not negative, --max-contacts not negative", errUsage)
	}
	in, err := loadQuery(pos, *pa, *pb)
	if err != nil {
		return err
	}
	var q meshquery.Query
	cs, err := q.Contacts(in.a, &in.ta, in.b, &in.tb, &meshquery.ContactOptions{Margin: *margin, MaxContacts: *maxN}, nil)
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]contactJSON, len(cs))
		for i, c := range cs {
			out[i] = contactJSON{c.Status.String(), vec3(c.Point), vec3(c.Normal), c.Separation, c.FeatureA.String(), c.FeatureB.String(), c.ID()}
		}
		return json.NewEncoder(e.stdout).Encode(struct {
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
