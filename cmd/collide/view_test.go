package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide-go/collide/simio"
)

// viewRecording writes a three-frame recording of the tower sample scene
// (every dynamic body lifted by 0, 1 and 2 cm) and returns the scene and
// recording directories.
func viewRecording(t *testing.T) (sceneDir, recDir string) {
	t.Helper()
	sceneDir = filepath.Join("..", "..", "testdata", "sim-samples", "tower-b8-k240-s2")
	sc, err := simio.ReadScene(sceneDir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &simio.Recording{Scene: sc.Name, Engine: "test", Steps: 2, Dt: sc.Dt, RecordEvery: 1, Threads: 1,
		WallNs: 2, NsPerStep: 1, ContactsPerStep: math.NaN(), Contacts: []simio.Contact{}}
	for s := 0; s <= 2; s++ {
		fr := simio.Frame{Step: s}
		for id, b := range sc.Bodies {
			if b.Static {
				continue
			}
			if s == 0 {
				rec.Bodies = append(rec.Bodies, id)
			}
			st := sc.Initial[id]
			st.Pose.P.Z += 0.01 * float64(s)
			fr.States = append(fr.States, st)
		}
		rec.Frames = append(rec.Frames, fr)
	}
	recDir = filepath.Join(t.TempDir(), "rec")
	if err := simio.WriteRecording(recDir, rec); err != nil {
		t.Fatal(err)
	}
	return sceneDir, recDir
}

func TestViewHTML(t *testing.T) {
	sceneDir, recDir := viewRecording(t)
	out := filepath.Join(t.TempDir(), "v", "tower.html")
	var stdout, stderr bytes.Buffer
	if st := run([]string{"view", recDir, "--scene", sceneDir, "--html", out}, &stdout, &stderr); st != 0 {
		t.Fatalf("status %d: %s", st, stderr.String())
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("tower-b8-k240-s2")) || !bytes.Contains(page, []byte(`class="viewer-chunk"`)) {
		t.Error("the HTML file lacks the scene's name or its data")
	}
	if !strings.Contains(stderr.String(), "wrote "+out) {
		t.Errorf("no note of the file written: %q", stderr.String())
	}

	// Without --scene: found inside the recording directory, else an error
	// that says how to name it.
	stderr.Reset()
	if st := run([]string{"view", recDir, "--html", out}, &stdout, &stderr); st != 2 || !strings.Contains(stderr.String(), "--scene") {
		t.Errorf("no scene to find: status %d, %q", st, stderr.String())
	}
	if err := os.CopyFS(filepath.Join(recDir, "scene"), os.DirFS(sceneDir)); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if st := run([]string{"view", recDir, "--html", out}, &stdout, &stderr); st != 0 {
		t.Errorf("scene in REC_DIR/scene: status %d, %q", st, stderr.String())
	}
	for _, args := range [][]string{{"view"}, {"view", recDir, "--port", "70000"}, {"view", recDir, "extra"}} {
		stderr.Reset()
		if st := run(args, &stdout, &stderr); st != 2 {
			t.Errorf("%q: status %d, want 2 (%s)", args, st, stderr.String())
		}
	}
	stderr.Reset()
	if st := run([]string{"view", filepath.Join(t.TempDir(), "missing")}, &stdout, &stderr); st == 0 || !strings.Contains(stderr.String(), "recording.json") {
		t.Errorf("missing recording: status %d, %q", st, stderr.String())
	}
}

func TestScrewAndWorldHTML(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	screwHTML := filepath.Join(dir, "tori.html")
	if st := run([]string{"screw", "torus", "torus", "--a0", "1,-0.3,-2.1,0.70710678118654757,0.70710678118654746,0,0",
		"--a1", "1.1,0.3,2.1,0.68301270189221941,0.6830127018922193,0.1830127018922193,0.18301270189221933",
		"--b0", "0,0,0", "--b1", "0,0,0", "--html", screwHTML}, &stdout, &stderr); st != 0 {
		t.Fatalf("screw: status %d: %s", st, stderr.String())
	}
	if page, err := os.ReadFile(screwHTML); err != nil || !bytes.Contains(page, []byte("screw motion: torus and torus")) {
		t.Errorf("screw --html: %v", err)
	}
	if !strings.Contains(stdout.String(), "collisions") {
		t.Errorf("screw --html no longer prints its collisions: %q", stdout.String())
	}

	stdout.Reset()
	worldHTML := filepath.Join(dir, "world.html")
	if st := run([]string{"world", "--bodies", "40", "--steps", "3", "--quiet", "--html", worldHTML}, &stdout, &stderr); st != 0 {
		t.Fatalf("world: status %d: %s", st, stderr.String())
	}
	if page, err := os.ReadFile(worldHTML); err != nil || !bytes.Contains(page, []byte("world: 40 convex bodies")) {
		t.Errorf("world --html: %v", err)
	}
	// The contacts gathered for the viewer are not listed unless asked for.
	if strings.Contains(stdout.String(), " point (") {
		t.Errorf("world --html lists contacts without --contacts:\n%s", stdout.String())
	}
}
