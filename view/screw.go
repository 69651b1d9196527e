package view

import (
	"fmt"
	"math"
	"sort"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/screw"
)

// FromScrew builds the viewer's scene of one screw-motion query: body A (mesh
// a, named nameA) moving from pose p[0] to p[1] and body B (mesh b) from p[2]
// to p[3], each by geom.ScrewPose, sampled at samples+1 evenly spaced
// times of the step and at the time of every collision in cs, where the
// collision is marked (point and normal, labelled with its kind, features
// and properness). Figures: the collisions at the frame's time and those up
// to it.
func FromScrew(nameA, nameB string, a, b *mesh.Mesh, p [4]geom.Pose, cs []screw.Collision, samples int) (*Scene, error) {
	if samples < 1 {
		samples = 1
	}
	times := make([]float64, 0, samples+1+len(cs))
	for i := 0; i <= samples; i++ {
		times = append(times, float64(i)/float64(samples))
	}
	for _, c := range cs {
		if !(c.Time >= 0 && c.Time <= 1) {
			return nil, fmt.Errorf("%w: collision time %v outside [0, 1]", ErrScene, c.Time)
		}
		times = append(times, c.Time)
	}
	sort.Float64s(times)
	uniq := times[:1]
	for _, t := range times[1:] {
		if t != uniq[len(uniq)-1] {
			uniq = append(uniq, t)
		}
	}
	m := screw.Relative(p[0], p[1], p[2], p[3])
	s := &Scene{
		Title:      "screw motion: " + nameA + " and " + nameB,
		TimeUnit:   "t",
		Rate:       0.25,
		Up:         geom.Vec3{Z: 1},
		Meshes:     []Mesh{{Name: "A: " + nameA, Mesh: a}, {Name: "B: " + nameB, Mesh: b}},
		Bodies:     []Body{{Mesh: 0, Label: "A"}, {Mesh: 1, Label: "B"}},
		Figures:    []string{"collisions at t", "collisions up to t"},
		MarkerList: true,
	}
	s.Info = append(s.Info,
		fmt.Sprintf("relative screw: rotation %.4g deg, glide %.4g", m.Theta*180/math.Pi, m.G),
		fmt.Sprintf("%d collisions; t is the fraction of the step", len(cs)))
	seen := 0
	for _, t := range uniq {
		f := Frame{Time: t, Step: -1, Poses: []geom.Pose{geom.ScrewPose(p[0], p[1], t), geom.ScrewPose(p[2], p[3], t)}}
		for _, c := range cs {
			if c.Time != t {
				continue
			}
			label := fmt.Sprintf("%s A%d B%d properness %.3g", c.Kind, c.FeatureA, c.FeatureB, c.Properness)
			if c.Near {
				label += " (near)"
			}
			f.Markers = append(f.Markers, Marker{A: 0, B: 1, Point: c.Point, Normal: c.Normal, Time: c.Time, Label: label})
		}
		seen += len(f.Markers)
		f.Figures = []float64{float64(len(f.Markers)), float64(seen)}
		s.Frames = append(s.Frames, f)
	}
	return s, s.Validate()
}
