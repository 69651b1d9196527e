package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// lockedBuffer is a bytes.Buffer safe for a command writing in one goroutine
// while the test reads in another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestViewServe runs "collide view" as a server on a free port and fetches
// the page and its data. The server runs until the test binary exits.
func TestViewServe(t *testing.T) {
	_, recDir := viewRecording(t)
	if err := os.CopyFS(filepath.Join(recDir, "scene"), os.DirFS(filepath.Join("..", "..", "testdata", "sim-samples", "tower-b8-k240-s2"))); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"view", recDir, "--port", strconv.Itoa(port)}, &stdout, &stderr) }()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stdout.String(), url) {
		select {
		case st := <-done:
			t.Fatalf("collide view ended with status %d: %s", st, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("collide view printed no address %s: %q %q", url, stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for path, want := range map[string]string{"": "<!DOCTYPE html>", "data.bin": "CVW1", "app.js": "// collide view"} {
		r, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || !bytes.HasPrefix(b, []byte(want)) {
			t.Errorf("GET /%s: %d, %q", path, r.StatusCode, b[:min(len(b), 40)])
		}
	}
	// The port is taken now: a second server on it fails at once.
	var out2, err2 bytes.Buffer
	if st := run([]string{"view", recDir, "--port", strconv.Itoa(port)}, &out2, &err2); st == 0 || !strings.Contains(err2.String(), "address already in use") {
		t.Errorf("second server on port %d: status %d, %q", port, st, err2.String())
	}
}
