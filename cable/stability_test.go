package cable

import (
	"math"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

// chainOmega is the largest angular frequency of a free chain of n+1
// equal masses m joined by n springs k, by power iteration on the dense
// stiffness matrix K/m (independent of the package's bound).
func chainOmega(n int, m, k float64) float64 {
	p := n + 1
	a := make([][]float64, p)
	for i := range a {
		a[i] = make([]float64, p)
	}
	for i := 0; i < n; i++ {
		a[i][i] += k / m
		a[i+1][i+1] += k / m
		a[i][i+1] -= k / m
		a[i+1][i] -= k / m
	}
	x := make([]float64, p)
	for i := range x {
		x[i] = math.Cos(float64(3*i) + 0.5)
	}
	lambda := 0.0
	for it := 0; it < 5000; it++ {
		y := make([]float64, p)
		norm := 0.0
		for i := range a {
			for j := range a[i] {
				y[i] += a[i][j] * x[j]
			}
			norm += y[i] * y[i]
		}
		norm = math.Sqrt(norm)
		lambda = norm
		for i := range y {
			x[i] = y[i] / norm
		}
	}
	return math.Sqrt(lambda)
}

// TestLongStepsStayStable: a stretched free cable keeps its energy at
// every step from 1 ms to 0.1 s (semi-implicit Euler alone diverges above
// 2/omega, about 4.5 ms for the hoop's cables), and the substep obeys the
// true frequency's bound h omega < 2.
func TestLongStepsStayStable(t *testing.T) {
	const segs, mass, k = 24, 0.05, 100.0
	omega := chainOmega(segs, mass/(segs+1), k)
	for _, dt := range []float64{0.001, 0.002, 0.006, 0.02, 0.05, 0.1} {
		s, err := New(Options{Dt: dt, NoGravity: true, NoCollisions: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddCable(Cable{From: geom.V(0, 0, 0), To: geom.V(0.5, 0, 0), Segments: segs, Mass: mass, Stiffness: k}); err != nil {
			t.Fatal(err)
		}
		// Stretch every other particle sideways: every mode is excited.
		for i := 1; i < segs; i += 2 {
			s.x[i].Y += 0.002
		}
		h := dt / float64(s.Substeps())
		if h*omega >= 2 {
			t.Errorf("dt %v: %d substeps of %v s, but the chain's highest frequency %v rad/s needs h < %v",
				dt, s.Substeps(), h, omega, 2/omega)
		}
		e0 := s.Energy().Total()
		for i := 0; i < int(1/dt); i++ {
			s.Step()
			if e := s.Energy().Total(); !(e < 1.5*e0) {
				t.Fatalf("dt %v step %d: energy %v J from %v J", dt, i, e, e0)
			}
		}
	}
}

// TestStiffSpringRefused: a spring that would need more substeps than
// MaxSubsteps is refused with an error stating the stable step.
func TestStiffSpringRefused(t *testing.T) {
	s, err := New(Options{Dt: 0.02, MaxSubsteps: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.AddCable(Cable{From: geom.V(0, 0, 0), To: geom.V(1, 0, 0), Segments: 4, Mass: 0.01, Stiffness: 1e9})
	if err == nil || !strings.Contains(err.Error(), "at most") || !strings.Contains(err.Error(), "MaxSubsteps 10") {
		t.Fatalf("error %v, want one stating the stable step and MaxSubsteps", err)
	}
	if _, err := New(Options{MaxSubsteps: -1}); err == nil || !strings.Contains(err.Error(), "MaxSubsteps") {
		t.Errorf("MaxSubsteps -1: %v", err)
	}
}

// TestSubstepsFinite: extreme masses and stiffnesses give a finite number
// of substeps within MaxSubsteps, or a refusal.
func TestSubstepsFinite(t *testing.T) {
	for _, m := range []float64{1e-300, 1e-30, 1, 1e30, 1e300} {
		for _, k := range []float64{0, 1e-300, 1, 1e30, 1e300} {
			s, err := New(Options{NoCollisions: true})
			if err != nil {
				t.Fatal(err)
			}
			a, errA := s.AddParticle(Particle{Mass: m})
			b, errB := s.AddParticle(Particle{X: geom.V(1, 0, 0), Mass: m})
			if errA != nil || errB != nil {
				continue
			}
			if err := s.AddSpring(a, b, k, k); err != nil {
				continue
			}
			if n := s.Substeps(); n < 1 || n > DefaultMaxSubsteps {
				t.Errorf("mass %v stiffness %v: %d substeps", m, k, n)
			}
			if st := s.Step(); st.Substeps != s.Substeps() {
				t.Errorf("mass %v stiffness %v: step took %d substeps, want %d", m, k, st.Substeps, s.Substeps())
			}
		}
	}
}

// TestErrorsSayThePackageOnce: errors of nested calls (a static mesh's
// vertex, edge or triangle; a cable) say "cable:" once and name the part.
func TestErrorsSayThePackageOnce(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := s.AddStaticMesh([]geom.Vec3{{X: nan}}, nil, nil); return err }(), "static mesh vertex 0: particle"},
		{func() error {
			_, err := s.AddStaticMesh([]geom.Vec3{{}, {}}, [][2]int{{0, 1}}, nil)
			return err
		}(), "static mesh edge 0: edge"},
		{func() error {
			_, err := s.AddStaticMesh([]geom.Vec3{{}, {X: 1}, {X: 2}}, nil, [][3]int{{0, 1, 2}})
			return err
		}(), "static mesh triangle 0: triangle"},
		{func() error { _, err := s.AddCable(Cable{Segments: 0, Mass: 1, To: geom.V(1, 0, 0)}); return err }(), "Cable.Segments 0"},
		{func() error { _, err := s.AddCable(Cable{Segments: 2, Mass: 1}); return err }(), "Cable.From"},
	} {
		if c.err == nil || strings.Count(c.err.Error(), "cable:") != 1 || !strings.HasPrefix(c.err.Error(), "cable: ") || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one \"cable:\" and %q", c.err, c.want)
		}
	}
}

// TestStepAllocs: once its scratch space has grown, a step with contacts
// and substeps allocates nothing.
func TestStepAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	s := barScene(t, Options{Dt: 0.01, Friction: 0.5}, -1)
	for i := 0; i < 30; i++ {
		s.Step()
	}
	if s.Substeps() < 2 {
		t.Fatalf("%d substeps: the test needs more than one", s.Substeps())
	}
	contacts := 0
	if a := testing.AllocsPerRun(20, func() { contacts += s.Step().Contacts }); a > 0 {
		t.Errorf("Step allocates %v times", a)
	}
	if contacts == 0 {
		t.Errorf("no contacts in the measured steps: the test proves nothing")
	}
}
