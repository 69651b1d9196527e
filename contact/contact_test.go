package contact

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

func TestZeroIsUnknown(t *testing.T) {
	var c Contact
	if c.Status != Unknown || c.Status.String() != "unknown" {
		t.Fatalf("zero status = %v", c.Status)
	}
	if c.Validate() == nil {
		t.Fatal("a zero record validates")
	}
	if c.FeatureA.Kind != NoFeature || c.HasProperness {
		t.Fatal("zero record claims features or properness")
	}
}

func TestFlipAndID(t *testing.T) {
	c := Contact{Status: Hit, Time: 0.5, Normal: geom.Vec3{X: 1}, FeatureA: E(3), FeatureB: F(7)}
	f := c.Flip()
	if f.Normal != (geom.Vec3{X: -1}) || f.FeatureA != F(7) || f.FeatureB != E(3) {
		t.Fatalf("Flip = %v", f)
	}
	if f.Flip() != c {
		t.Fatal("Flip is not an involution")
	}
	ids := map[uint64]Feature{}
	for _, k := range []FeatureKind{Vertex, Edge, Face} {
		for _, i := range []int32{0, 1, 2, 1 << 20} {
			x := Contact{FeatureA: Feature{k, i}, FeatureB: V(5)}
			if prev, ok := ids[x.ID()]; ok {
				t.Fatalf("ID collision: %v and %v", prev, x.FeatureA)
			}
			ids[x.ID()] = x.FeatureA
		}
	}
	if c.ID() == f.ID() {
		t.Fatal("ID ignores which side a feature is on")
	}
}

func TestValidate(t *testing.T) {
	good := Contact{Status: Penetrating, Time: 1, Normal: geom.Vec3{Z: 1}, Separation: -0.1}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []Contact{
		{Status: Hit, Time: 1.5, Normal: geom.Vec3{Z: 1}},
		{Status: Hit, Time: math.NaN(), Normal: geom.Vec3{Z: 1}},
		{Status: Hit, Normal: geom.Vec3{Z: 2}},
		{Status: Hit, Normal: geom.Vec3{Z: 1}, Point: geom.Vec3{X: math.Inf(1)}},
		{Status: Hit, Normal: geom.Vec3{Z: 1}, Separation: math.NaN()},
		{Status: numStatus, Normal: geom.Vec3{Z: 1}},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("case %d: %v validates", i, c)
		}
	}
	for s := Hit; s < numStatus; s++ {
		if s.Colliding() != (s == Hit || s == Touching || s == Penetrating) {
			t.Errorf("%v.Colliding() wrong", s)
		}
	}
}
