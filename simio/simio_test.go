package simio

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
)

var samples = []string{"chain-b6-k240-s3", "pile-b24-k180-s1", "shoot-b12-k60-s4", "tower-b8-k240-s2"}

func sampleDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "sim-samples", name)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("sample scene missing (the tests need testdata/sim-samples): %v", err)
	}
	return dir
}

func TestReadSamples(t *testing.T) {
	for _, name := range samples {
		s, err := ReadScene(sampleDir(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != name || s.Steps < 1 || s.Dt <= 0 || len(s.Initial) != len(s.Bodies) {
			t.Fatalf("%s: %+v", name, s)
		}
		if s.Gravity != (geom.Vec3{Z: -9.81}) {
			t.Errorf("%s: gravity %v", name, s.Gravity)
		}
		dyn := 0
		for i, b := range s.Bodies {
			m := s.Meshes[b.Mesh].Mesh
			if !m.Closed() {
				t.Errorf("%s: body %d: mesh not closed", name, i)
			}
			if !b.Static {
				dyn++
				if !s.Bounds.Contains(s.Initial[i].Pose.P) {
					t.Errorf("%s: body %d starts outside bounds", name, i)
				}
			}
		}
		if dyn == 0 {
			t.Errorf("%s: no dynamic body", name)
		}
	}
}

// roundTrip writes v to a temporary directory and reads it back.
func roundTrip[T any](t *testing.T, v T, write func(string, T) error, read func(string) (T, error)) T {
	t.Helper()
	dir := t.TempDir()
	if err := write(dir, v); err != nil {
		t.Fatal(err)
	}
	got, err := read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSceneRoundTrip writes a sample scene and reads it back.
func TestSceneRoundTrip(t *testing.T) {
	s, err := ReadScene(sampleDir(t, "tower-b8-k240-s2"))
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, s, WriteScene, ReadScene)
	if got.Name != s.Name || got.Dt != s.Dt || got.Steps != s.Steps || got.Bounds != s.Bounds || got.Settles != s.Settles {
		t.Fatalf("header differs: %+v vs %+v", got, s)
	}
	for i := range s.Bodies {
		if got.Bodies[i] != s.Bodies[i] || got.Initial[i] != s.Initial[i] {
			t.Fatalf("body %d differs", i)
		}
		a, b := got.Meshes[got.Bodies[i].Mesh].Mesh, s.Meshes[s.Bodies[i].Mesh].Mesh
		if a.NumVerts() != b.NumVerts() || a.NumFaces() != b.NumFaces() || a.Volume() != b.Volume() {
			t.Fatalf("body %d mesh differs", i)
		}
	}
}

func testRecording() *Recording {
	r := &Recording{Scene: "s", Engine: "test", Steps: 7, Dt: 0.01, RecordEvery: 3, Threads: 1,
		WallNs: 700, NsPerStep: 100, ContactsPerStep: math.NaN(), Bodies: []int{1, 4}}
	for _, step := range RecordedSteps(7, 3) {
		f := Frame{Step: step}
		for i := range r.Bodies {
			x := float64(step*10 + i)
			f.States = append(f.States, State{Pose: geom.Pose{P: geom.Vec3{X: x, Y: 1.0 / 3, Z: -x}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, x)},
				V: geom.Vec3{X: 0.1 * x}, W: geom.Vec3{Y: math.Pi}})
		}
		r.Frames = append(r.Frames, f)
	}
	return r
}

func TestRecordingRoundTrip(t *testing.T) {
	if got := RecordedSteps(7, 3); len(got) != 4 || got[3] != 7 || got[2] != 6 {
		t.Fatalf("RecordedSteps(7, 3) = %v", got)
	}
	if got := RecordedSteps(6, 3); len(got) != 3 || got[2] != 6 {
		t.Fatalf("RecordedSteps(6, 3) = %v", got)
	}
	r := testRecording()
	r.Contacts = []Contact{{Step: 2, A: 0, B: 1, Point: geom.Vec3{X: 1}, Normal: geom.Vec3{Z: 1}, Depth: 1e-3}}
	r.ContactsPerStep = 0.25
	got := roundTrip(t, r, WriteRecording, ReadRecording)
	if got.Steps != r.Steps || got.RecordEvery != 3 || len(got.Frames) != 4 || got.ContactsPerStep != 0.25 || len(got.Contacts) != 1 || got.Contacts[0] != r.Contacts[0] {
		t.Fatalf("got %+v", got)
	}
	for k := range r.Frames {
		for i := range r.Bodies {
			if got.Frames[k].States[i] != r.Frames[k].States[i] {
				t.Fatalf("frame %d body %d: %v, want %v", k, i, got.Frames[k].States[i], r.Frames[k].States[i])
			}
		}
	}
}

// TestErrors checks that bad files give errors that name the file and the
// line or field.
func TestErrors(t *testing.T) {
	good := testRecording()
	cases := []struct {
		name, file, content, want string
	}{
		{"bad header", "states.csv", "step,body,x\n", "states.csv:1"},
		{"missing step", "states.csv", statesHeader + "\n0,1,0,0,0,1,0,0,0,0,0,0,0,0,0\n0,4,0,0,0,1,0,0,0,0,0,0,0,0,0\n6,1,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "states.csv:4"},
		{"not unit", "states.csv", statesHeader + "\n0,1,0,0,0,2,0,0,0,0,0,0,0,0,0\n", "states.csv:2: malformed: quaternion"},
		{"nan", "states.csv", statesHeader + "\n0,1,NaN,0,0,1,0,0,0,0,0,0,0,0,0\n", "states.csv:2"},
		{"short", "states.csv", statesHeader + "\n0,1,0,0\n", "states.csv:2: malformed: 4 fields"},
		{"json", "recording.json", "{\n\"format\": 3}", "recording.json:2"},
		{"contacts", "contacts.csv", contactsHeader + "\n1,0,1,0,0,0,0,0,1,x\n", "contacts.csv:2"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if err := WriteRecording(dir, good); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadRecording(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestScenePathEscape(t *testing.T) {
	src := sampleDir(t, "tower-b8-k240-s2")
	dir := t.TempDir()
	s, err := ReadScene(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteScene(dir, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "scene.json"))
	for _, bad := range []string{"../../../etc/passwd", "/etc/passwd"} {
		mod := strings.Replace(string(data), "meshes/box0.obj", bad, 1)
		os.WriteFile(filepath.Join(dir, "scene.json"), []byte(mod), 0o644)
		_, err := ReadScene(dir)
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "leaves the directory") {
			t.Errorf("mesh path %q: error %v", bad, err)
		}
	}
}

// FuzzReadRecording feeds arbitrary states.csv contents: the reader must
// return a recording or an error, never panic.
func FuzzReadRecording(f *testing.F) {
	f.Add(statesHeader + "\n0,1,0,0,0,1,0,0,0,0,0,0,0,0,0\n")
	f.Add(statesHeader + "\n0,1,1e308,0,0,1,0,0,0,0,0,0,0,0,0\n3,1,0,0,0,1,0,0,0,0,0,0,0,0,0\n")
	dir := f.TempDir()
	good := testRecording()
	good.Steps, good.RecordEvery = 3, 3
	if err := WriteRecording(dir, good); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, states string) {
		if err := os.WriteFile(filepath.Join(dir, "states.csv"), []byte(states), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := ReadRecording(dir)
		if err == nil {
			for _, fr := range r.Frames {
				if len(fr.States) != len(r.Bodies) {
					t.Fatalf("frame %d: %d states for %d bodies", fr.Step, len(fr.States), len(r.Bodies))
				}
			}
		}
	})
}
