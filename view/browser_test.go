package view

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// The browser tests open the viewer in headless Chromium (the Debian package
// chromium; .ci/run installs it) driven through the DevTools protocol by
// chromedp, both served by Handler and as the file WriteHTML writes, and check
// what a user would see: the page reports no console error or uncaught
// exception and requests nothing off this machine, the canvas shows bodies (pixels that differ from the
// background), and moving the time slider changes the picture. Screenshots go
// to the test's artifact directory (go test -artifacts keeps them).
//
// Without a browser the tests say so and skip.

var (
	docImg   = flag.String("docimg", "", "write the documentation screenshots (pile, chain, tori) into this directory")
	viewPerf = flag.Bool("viewperf", false, "measure load and frame times of the largest sample recording and a 1000-body, 600-step recording")
	viewRec  = flag.String("viewrec", "", "with -viewperf, also measure this recording directory (its scene found as collide view finds it)")
)

// findBrowser returns the path of a Chromium or Chrome binary, or "".
func findBrowser() string {
	if p := os.Getenv("CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless Chromium with one tab, collecting the console errors
// and uncaught exceptions of the pages it shows.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

func newBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	path := findBrowser()
	if path == "" {
		t.Skip("no Chromium found, so the viewer cannot be tested in a browser here: install the Debian package chromium (.ci/run does), or set CHROME to a Chrome binary")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("enable-unsafe-swiftshader", true), // software WebGL without a GPU
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, tcancel := context.WithTimeout(ctx, 4*time.Minute)
	b := &browser{ctx: ctx}
	done := make(chan struct{})
	t.Cleanup(func() { tcancel(); cancel(); acancel(); <-done })
	if err := chromedp.Do(ctx); err != nil {
		close(done)
		t.Fatalf("starting %s: %v", path, err)
	}
	// The page must work offline: every request it makes stays on this
	// machine (the test server on 127.0.0.1) or inside the page.
	err := chromedp.Listen(ctx, func(ev any) {
		r, ok := ev.(*network.EventRequestWillBeSent)
		if !ok || r.Request == nil {
			return
		}
		u := r.Request.URL
		for _, local := range []string{"file:", "data:", "blob:", "about:", "http://127.0.0.1:"} {
			if strings.HasPrefix(u, local) {
				return
			}
		}
		b.mu.Lock()
		b.errs = append(b.errs, "network request off this machine: "+u)
		b.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.errs = append(b.errs, m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// open loads url and waits until the viewer is ready or reports an error; it
// returns the milliseconds from navigation to ready.
func (b *browser) open(t *testing.T, url string) float64 {
	t.Helper()
	start := time.Now()
	err := chromedp.Do(b.ctx, chromedp.Navigate(url),
		chromedp.Poll[chromedp.Void](`((window.viewer && window.viewer.ready) || document.getElementById('status').textContent.startsWith('error')) && true`,
			chromedp.WithPollingTimeout(2*time.Minute)))
	ms := float64(time.Since(start).Microseconds()) / 1e3
	if err != nil {
		t.Fatalf("%s: %v (console: %q)", url, err, b.errors())
	}
	status, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById('status').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(status, "error") {
		t.Fatalf("%s: page says %q (console: %q)", url, status, b.errors())
	}
	return ms
}

// eval evaluates a JavaScript expression, awaiting it when it is a promise,
// and decodes its value into res.
func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v (console: %q)", js, err, b.errors())
	}
	return v
}

// settle waits for two animation frames, so the last change is drawn.
const settle = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`

// shot returns a screenshot of the canvas (the picture without the panel).
func (b *browser) shot(t *testing.T) image.Image {
	t.Helper()
	eval[bool](t, b, settle)
	buf, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS("#canvas")))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// page returns a screenshot of the whole window as PNG bytes.
func (b *browser) page(t *testing.T) []byte {
	t.Helper()
	eval[bool](t, b, settle)
	buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

// background is the page's canvas colour (app.js BACKGROUND).
var background = [3]int{0x1d, 0x20, 0x27}

func near(c [3]int, d [3]int) bool {
	return abs(c[0]-d[0]) <= 24 && abs(c[1]-d[1]) <= 24 && abs(c[2]-d[2]) <= 24
}

func rgb(img image.Image, x, y int) [3]int {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
}

// painted counts the pixels that differ from the background.
func painted(img image.Image) int {
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !near(rgb(img, x, y), background) {
				n++
			}
		}
	}
	return n
}

// changed counts the pixels that differ between two pictures of one size.
// outline counts the pixels painted (not background) in one picture only.
func outline(a, b image.Image) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if near(rgb(a, x, y), background) != near(rgb(b, x, y), background) {
				n++
			}
		}
	}
	return n
}

// shades counts the distinct colours of the pixels that differ from the
// background.
func shades(img image.Image) int {
	seen := map[[3]int]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := rgb(img, x, y); !near(c, background) {
				seen[c] = true
			}
		}
	}
	return len(seen)
}

func changed(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !near(rgb(a, x, y), rgb(b, x, y)) {
				n++
			}
		}
	}
	return n
}

func savePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkViewer runs the user-level checks on the page at url: no console
// error, bodies on the canvas with lit faces, the slider moves the picture. It saves the two
// canvas screenshots as name-first.png and name-moved.png.
func checkViewer(t *testing.T, b *browser, url, name string, frames, meshes int) {
	t.Helper()
	b.open(t, url)
	n := eval[int](t, b, `window.viewer.frames`)
	if n != frames {
		t.Errorf("%s: the page has %d frames, want %d", name, n, frames)
	}
	first := b.shot(t)
	px := first.Bounds().Dx() * first.Bounds().Dy()
	if p := painted(first); p < px/100 {
		t.Errorf("%s: only %d of %d canvas pixels differ from the background: the bodies are not drawn", name, p, px)
	} else {
		t.Logf("%s: %d of %d canvas pixels painted", name, p, px)
	}
	// The faces of a body are shaded by their direction: many more shades
	// than meshes (one flat colour per mesh if the lighting were lost).
	if n := shades(first); n < 4*meshes {
		t.Errorf("%s: %d shades painted for %d meshes: the faces are not lit", name, n, meshes)
	} else {
		t.Logf("%s: %d shades painted for %d meshes", name, n, meshes)
	}
	// Move the slider as a user would: set its value and fire "input".
	at := eval[int](t, b, `(() => { const s = document.getElementById('slider');
		s.value = String(Math.round(0.6 * Number(s.max))); s.dispatchEvent(new Event('input', {bubbles: true}));
		return window.viewer.frame; })()`)
	if want := int(math.Round(0.6 * float64(frames-1))); at != want {
		t.Errorf("%s: after moving the slider the page shows frame %d, want %d", name, at, want)
	}
	moved := b.shot(t)
	if c := changed(first, moved); c < px/500 {
		t.Errorf("%s: moving the slider to frame %d changed only %d of %d pixels", name, at, c, px)
	} else {
		t.Logf("%s: the slider changed %d pixels", name, c)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("%s: console errors or requests off this machine:\n%s", name, strings.Join(errs, "\n"))
	}
	dir := t.ArtifactDir()
	savePNG(t, filepath.Join(dir, name+"-first.png"), first)
	savePNG(t, filepath.Join(dir, name+"-moved.png"), moved)
}

// readRecording reads the scene and the recording.
func readRecording(t testing.TB, sceneDir, recDir string) (*simio.Scene, *simio.Recording) {
	t.Helper()
	sc, err := simio.ReadScene(sceneDir)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := simio.ReadRecording(recDir)
	if err != nil {
		t.Fatal(err)
	}
	return sc, rec
}

// recordingScene reads the scene and recording and builds the viewer scene.
func recordingScene(t testing.TB, sceneDir, recDir string) *Scene {
	t.Helper()
	s, err := FromRecording(readRecording(t, sceneDir, recDir))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serveScene serves the viewer of s until the test ends and returns its
// address.
func serveScene(t testing.TB, s *Scene) string {
	t.Helper()
	h, err := Handler(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func writeHTMLFile(t testing.TB, s *Scene, path string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

func TestBrowserServed(t *testing.T) {
	b := newBrowser(t, 1100, 700)
	sceneDir, recDir := sampleRecording(t, "pile-b24-k180-s1", 180, 1)
	s := recordingScene(t, sceneDir, recDir)
	checkViewer(t, b, serveScene(t, s), "served-pile", len(s.Frames), len(s.Meshes))
}

func TestBrowserHTMLFile(t *testing.T) {
	b := newBrowser(t, 1100, 700)
	sceneDir, recDir := sampleRecording(t, "chain-b6-k240-s3", 240, 2)
	s := recordingScene(t, sceneDir, recDir)
	url := writeHTMLFile(t, s, filepath.Join(t.TempDir(), "chain.html"))
	checkViewer(t, b, url, "file-chain", len(s.Frames), len(s.Meshes))
}

// TestBrowserBrokenPage shows that the browser checks catch a broken page:
// data whose header names a section differently ("poses" renamed "poser",
// as a renamed field would) makes the page say so and log a console error,
// which the checks above report.
func TestBrowserBrokenPage(t *testing.T) {
	b := newBrowser(t, 800, 600)
	sceneDir, recDir := sampleRecording(t, "pile-b24-k180-s1", 30, 1)
	s := recordingScene(t, sceneDir, recDir)
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(data, []byte(`"poses"`), []byte(`"poser"`), 1)
	if bytes.Equal(broken, data) {
		t.Fatal("the header has no section named poses")
	}
	h, err := Handler(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/data.bin" {
			w.Write(broken)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	err = chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/"),
		chromedp.Poll[chromedp.Void](`document.getElementById('status').textContent.startsWith('error') && true`, chromedp.WithPollingTimeout(time.Minute)))
	if err != nil {
		t.Fatalf("the broken page does not say it failed: %v", err)
	}
	status := eval[string](t, b, `document.getElementById('status').textContent`)
	if !strings.Contains(status, "poses") {
		t.Errorf("the page says %q, which does not name the section", status)
	}
	if len(b.errors()) == 0 {
		t.Error("the broken page logged no console error")
	}
	t.Logf("the page says %q; console: %q", status, b.errors())
}

// toriScene is the tori example of Buss's Fig. 13 (collide demo): torus A,
// stood upright, moves up through torus B's hole while turning 30 degrees.
func toriScene(t testing.TB) *Scene {
	t.Helper()
	tor := shapes.Torus(1, 0.35, 20, 15)
	upright := geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)
	p := [4]geom.Pose{
		{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: upright},
		{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(upright)},
		geom.PoseIdentity(), geom.PoseIdentity(),
	}
	cs, err := screw.NewDetector().Detect(tor, tor, p[0], p[1], p[2], p[3], &screw.Options{Properness: screw.ProperOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("the tori example has no collision")
	}
	s, err := FromScrew("torus", "torus", tor, tor, p, cs, 200)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBrowserScrew(t *testing.T) {
	b := newBrowser(t, 1100, 700)
	s := toriScene(t)
	url := writeHTMLFile(t, s, filepath.Join(t.TempDir(), "tori.html"))
	checkViewer(t, b, url, "file-tori", len(s.Frames), len(s.Meshes))
	// The marker list names every collision; clicking one shows its frame
	// with its point drawn.
	rows := eval[int](t, b, `document.querySelectorAll('#markers div').length`)
	if want := s.Frames[len(s.Frames)-1].Figures[1]; float64(rows) != want {
		t.Errorf("the marker list has %d rows, want %v collisions", rows, want)
	}
	frame := eval[int](t, b, `(() => { document.querySelectorAll('#markers div')[0].click(); return window.viewer.frame; })()`)
	if len(s.Frames[frame].Markers) == 0 {
		t.Errorf("clicking the first collision shows frame %d, which has no marker", frame)
	}
}

// renderTime is what window.viewer.renderTime returns.
type renderTime struct {
	Median    float64 `json:"median"`
	Min       float64 `json:"min"`
	Triangles int     `json:"triangles"`
	Calls     int     `json:"calls"`
}

// TestBrowserLOD opens a pile of 300 bodies, small in the picture, and
// checks that the simplified levels are drawn (fewer triangles than the
// meshes in full, in at most four draw calls) and that the picture is the
// same but for the shades of some facets and a few edge pixels (under 10% of
// the pixels painted in full detail differ, about 5% do; the outline of the
// bodies differs in under 2%), and the same picture (but
// for 0.1% of the pixels) when every level is drawn instanced (no vertex budget for copies per body);
// it logs the drawing times.
func TestBrowserLOD(t *testing.T) {
	b := newBrowser(t, 1100, 700)
	sd, rd := bigPile(t, 300, 30)
	url := serveScene(t, recordingScene(t, sd, rd))
	b.open(t, url)
	eval[bool](t, b, `(window.viewer.setFrame(20), true)`)
	lod := eval[renderTime](t, b, `window.viewer.renderTime(9)`)
	simple := b.shot(t)
	eval[bool](t, b, `(window.viewer.lodPixels = 0, true)`)
	full := eval[renderTime](t, b, `window.viewer.renderTime(9)`)
	detailed := b.shot(t)
	t.Logf("levels of detail: %d triangles, %d draw calls, drawn in %.1f ms (median of 9); in full: %d triangles, %d calls, %.1f ms",
		lod.Triangles, lod.Calls, lod.Median, full.Triangles, full.Calls, full.Median)
	if lod.Triangles >= full.Triangles || lod.Triangles == 0 {
		t.Errorf("%d triangles drawn with levels of detail, %d in full", lod.Triangles, full.Triangles)
	}
	if full.Calls > 4 || lod.Calls > 4 {
		t.Errorf("%d and %d draw calls, want at most 4 (bodies, static bodies, points, normals)", lod.Calls, full.Calls)
	}
	// With no vertex budget every level is drawn instanced: the same
	// picture, in one draw call per level drawn.
	b.open(t, url+"?merge=0")
	eval[bool](t, b, `(window.viewer.setFrame(20), true)`)
	inst := eval[renderTime](t, b, `window.viewer.renderTime(9)`)
	instanced := b.shot(t)
	t.Logf("instanced: %d triangles, %d draw calls, drawn in %.1f ms", inst.Triangles, inst.Calls, inst.Median)
	if inst.Triangles != lod.Triangles || inst.Calls <= lod.Calls {
		t.Errorf("instanced: %d triangles in %d draw calls, merged: %d in %d", inst.Triangles, inst.Calls, lod.Triangles, lod.Calls)
	}
	// (Bodies drawn in another order may differ where they meet at the
	// same depth: a few pixels.)
	if c := changed(simple, instanced); c > painted(simple)/1000 {
		t.Errorf("the instanced drawing changes %d of %d painted pixels", c, painted(simple))
	}
	p, c, o := painted(detailed), changed(simple, detailed), outline(simple, detailed)
	t.Logf("%d of %d painted pixels differ between the two pictures, %d painted in one only", c, p, o)
	if p < detailed.Bounds().Dx()*detailed.Bounds().Dy()/50 || c > p/10 || o > p/50 {
		t.Errorf("full detail paints %d pixels, the simplified levels change %d of them and the outline of %d", p, c, o)
	}
	savePNG(t, filepath.Join(t.ArtifactDir(), "lod-simplified.png"), simple)
	savePNG(t, filepath.Join(t.ArtifactDir(), "lod-full.png"), detailed)
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserDocImages writes the screenshots of the documentation (with
// -docimg DIR): the pile and the chain sample scenes replayed from ballistic
// recordings, and the tori screw example at its first collision.
func TestBrowserDocImages(t *testing.T) {
	if *docImg == "" {
		t.Skip("give -docimg DIR to write the documentation screenshots")
	}
	b := newBrowser(t, 1200, 720)
	for _, c := range []struct {
		name, scene string
		steps, k    int
		at          float64 // fraction of the frames
	}{
		{"view-pile", "pile-b24-k180-s1", 180, 1, 0.6},
		{"view-chain", "chain-b6-k240-s3", 240, 1, 0.3},
	} {
		sceneDir, recDir := simulatedRecording(t, c.scene)
		s := recordingScene(t, sceneDir, recDir)
		b.open(t, writeHTMLFile(t, s, filepath.Join(t.TempDir(), c.name+".html")))
		eval[bool](t, b, fmt.Sprintf(`(window.viewer.setFrame(Math.round(%g * (window.viewer.frames - 1))), true)`, c.at))
		if err := os.WriteFile(filepath.Join(*docImg, c.name+".png"), b.page(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := toriScene(t)
	b.open(t, writeHTMLFile(t, s, filepath.Join(t.TempDir(), "tori.html")))
	eval[bool](t, b, `(document.querySelectorAll('#markers div')[1].click(), true)`)
	if err := os.WriteFile(filepath.Join(*docImg, "view-tori.png"), b.page(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// perfResult is what window.viewer.measure returns.
type perfResult struct {
	Frames      int     `json:"frames"`
	Interval    float64 `json:"interval"`
	IntervalP95 float64 `json:"intervalP95"`
	Work        float64 `json:"work"`
	WorkP95     float64 `json:"workP95"`
	Update      float64 `json:"update"`
	UpdateP95   float64 `json:"updateP95"`
	Triangles   float64 `json:"triangles"`
}

// TestBrowserPerf (with -viewperf) measures, for the largest sample scene
// (the pile, 24 bodies, 180 steps), a 1000-body, 600-step pile (ballistic)
// and the recording -viewrec names, if any, the load time (navigation to the
// first picture) and the frame time while playing: the interval between
// animation frames, the page's work per frame (the update of poses and
// levels of detail, and the update with the drawing, read back to wait for
// it, also with bodies or markers alone), and the drawing of the middle
// frame alone, with the levels of detail and in full; served and from the
// HTML file, in windows of 1280x800 and 640x400 pixels (headless Chromium
// draws WebGL and composites in software, so the window size counts). It
// logs the figures and asserts none.
func TestBrowserPerf(t *testing.T) {
	if !*viewPerf {
		t.Skip("give -viewperf to measure load and frame times")
	}
	type rec struct {
		name        string
		data        int
		url, file   string
		fileBytes   int64
		readingTime time.Duration
	}
	var recs []rec
	cases := []struct {
		name string
		gen  func() (string, string)
	}{
		{"pile sample (24 bodies, 181 frames)", func() (string, string) { return sampleRecording(t, "pile-b24-k180-s1", 180, 1) }},
		{"ballistic pile (1000 bodies, 601 frames)", func() (string, string) { return bigPile(t, 1000, 600) }},
	}
	if *viewRec != "" {
		cases = append(cases, struct {
			name string
			gen  func() (string, string)
		}{*viewRec, func() (string, string) {
			r, err := simio.ReadRecording(*viewRec)
			if err != nil {
				t.Fatal(err)
			}
			return FindScene(*viewRec, r.Scene), *viewRec
		}})
	}
	for _, c := range cases {
		sd, rd := c.gen()
		t0 := time.Now()
		s := recordingScene(t, sd, rd)
		data, err := s.Encode()
		if err != nil {
			t.Fatal(err)
		}
		read := time.Since(t0)
		url := serveScene(t, s)
		file := writeHTMLFile(t, s, filepath.Join(t.TempDir(), "perf.html"))
		st, _ := os.Stat(strings.TrimPrefix(file, "file://"))
		recs = append(recs, rec{c.name, len(data), url, file, st.Size(), read})
	}
	for _, size := range [][2]int{{1280, 800}, {640, 400}} {
		b := newBrowser(t, size[0], size[1])
		// The browser's own animation frame rate, as a baseline: an empty
		// page counting animation frames for 4 s.
		b.open(t, "data:text/html,<div id=status></div><script>window.viewer={ready:true}</script>")
		base := eval[perfResult](t, b, `new Promise(r => { const iv = []; let prev = 0; const t0 = performance.now();
			const f = (now) => { if (prev) iv.push(now - prev); prev = now;
				if (now - t0 < 4000) requestAnimationFrame(f); else r({frames: iv.length, interval: iv.reduce((p, q) => p + q, 0) / iv.length}); };
			requestAnimationFrame(f); })`)
		t.Logf("window %dx%d, empty page: %d animation frames, interval %.1f ms (%.0f fps)", size[0], size[1], base.Frames, base.Interval, 1000/base.Interval)
		for _, r := range recs {
			for _, u := range []struct{ how, url string }{{"served", r.url}, {"html file", r.file}} {
				total := b.open(t, u.url)
				load := eval[float64](t, b, `window.viewer.loadMs`)
				m := eval[perfResult](t, b, `window.viewer.measure(4000)`)
				eval[bool](t, b, `(window.viewer.showMarkers(false), true)`)
				mb := eval[perfResult](t, b, `window.viewer.measure(2000)`)
				eval[bool](t, b, `(window.viewer.showMarkers(true), window.viewer.showBodies(false), true)`)
				mm := eval[perfResult](t, b, `window.viewer.measure(2000)`)
				eval[bool](t, b, `(window.viewer.showBodies(true), window.viewer.setFrame(window.viewer.frames >> 1), true)`)
				lod := eval[renderTime](t, b, `window.viewer.renderTime(15)`)
				full := eval[renderTime](t, b, `(window.viewer.lodPixels = 0, window.viewer.renderTime(15))`)
				eval[bool](t, b, `(window.viewer.lodPixels = 2, true)`)
				t.Logf("window %dx%d, %s, %s: data %.1f MB (file %.1f MB), reading and encoding the recording %v; navigation to first picture %.0f ms (data fetch, decode and scene set-up %.0f ms); playing: %d frames, frame interval %.1f ms mean (%.1f p95) = %.0f fps, %.0f triangles; per frame: update %.2f ms (%.2f p95), update and drawing %.1f ms (%.1f p95), of which bodies alone %.1f ms, markers alone %.1f ms; middle frame drawn in %.1f ms (least %.1f), %d triangles, %d draw calls; in full detail %.1f ms (least %.1f), %d triangles",
					size[0], size[1], r.name, u.how, float64(r.data)/1e6, float64(r.fileBytes)/1e6, r.readingTime.Round(time.Millisecond), total, load,
					m.Frames, m.Interval, m.IntervalP95, 1000/m.Interval, m.Triangles, m.Update, m.UpdateP95, m.Work, m.WorkP95, mb.Work, mm.Work,
					lod.Median, lod.Min, lod.Triangles, lod.Calls, full.Median, full.Min, full.Triangles)
			}
		}
		if errs := b.errors(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	}
}
