package hoop

import (
	"testing"

	"github.com/collide-go/collide/cable"
	"github.com/collide-go/collide/ccd"
)

// benchHoop steps the default hoop scene from frame `from` for b.N frames,
// starting again from a new scene stepped to `from` every `span` frames
// (not timed), so every measured frame is in the same phase of the fall.
func benchHoop(b *testing.B, o cable.Options, from, span int, verify bool) {
	var s *cable.System
	reset := func() {
		var err error
		if s, _, err = New(Config{Options: o}); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < from; i++ {
			s.Step()
		}
	}
	reset()
	contacts := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%span == 0 && i > 0 {
			b.StopTimer()
			reset()
			b.StartTimer()
		}
		contacts += s.Step().Contacts
		if verify {
			if n := s.VerifyLastStep(); n != 0 {
				b.Fatalf("%d crossings", n)
			}
		}
	}
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/frame")
}

// Falling freely above the hoop: broad phase only.
func BenchmarkHoopStepFalling(b *testing.B) { benchHoop(b, cable.Options{}, 0, 100, false) }

// Cables hitting the rim and the net (frames 150-250): the contact-rich phase.
func BenchmarkHoopStepContacts(b *testing.B) { benchHoop(b, cable.Options{}, 150, 100, false) }

// Cables resting on the net, rim and floor (frames 700-800).
func BenchmarkHoopStepResting(b *testing.B) { benchHoop(b, cable.Options{}, 700, 100, false) }

// The same contact phase with Jansen's cubic in ccd (not conservative).
func BenchmarkHoopStepContactsCubic(b *testing.B) {
	benchHoop(b, cable.Options{Method: ccd.Cubic}, 150, 100, false)
}

// The independent check of one frame, without the step's time.
func BenchmarkVerify(b *testing.B) {
	s, _, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		s.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.VerifyLastStep() != 0 {
			b.Fatal("crossing")
		}
	}
}
