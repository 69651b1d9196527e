package view

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// decoded is the frame data read back by a decoder written from the format's
// description (Scene.Encode), independent of the encoder.
type decoded struct {
	Header struct {
		Title     string     `json:"title"`
		TimeUnit  string     `json:"time_unit"`
		Rate      float64    `json:"rate"`
		Up        [3]float64 `json:"up"`
		Origin    [3]float64 `json:"origin"`
		Radius    float64    `json:"radius"`
		NormalLen float64    `json:"normal_length"`
		Meshes    []struct {
			Name  string `json:"name"`
			Color string `json:"color"`
		} `json:"meshes"`
		Bodies []struct {
			Mesh   int  `json:"mesh"`
			Static bool `json:"static"`
		} `json:"bodies"`
		Frames   int      `json:"frames"`
		Figures  []string `json:"figures"`
		Labels   []string `json:"labels"`
		Sections map[string]struct {
			Type   string `json:"type"`
			Offset int    `json:"offset"`
			Count  int    `json:"count"`
		} `json:"sections"`
	}
	F32 map[string][]float32
	F64 map[string][]float64
	I32 map[string][]int64 // u32 and i32
}

func decode(t *testing.T, data []byte) *decoded {
	t.Helper()
	if string(data[:4]) != "CVW1" {
		t.Fatalf("magic %q", data[:4])
	}
	n := int(binary.LittleEndian.Uint32(data[4:]))
	d := &decoded{F32: map[string][]float32{}, F64: map[string][]float64{}, I32: map[string][]int64{}}
	if err := json.Unmarshal(data[8:8+n], &d.Header); err != nil {
		t.Fatal(err)
	}
	for name, r := range d.Header.Sections {
		if r.Offset%8 != 0 {
			t.Errorf("section %s at offset %d, not a multiple of 8", name, r.Offset)
		}
		size := map[string]int{"f32": 4, "f64": 8, "u32": 4, "i32": 4}[r.Type]
		if size == 0 || r.Offset < 8+n || r.Offset+size*r.Count > len(data) {
			t.Fatalf("section %s: type %q offset %d count %d in %d bytes", name, r.Type, r.Offset, r.Count, len(data))
		}
		b := data[r.Offset:]
		for i := 0; i < r.Count; i++ {
			switch r.Type {
			case "f32":
				d.F32[name] = append(d.F32[name], math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
			case "f64":
				d.F64[name] = append(d.F64[name], math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
			case "u32":
				d.I32[name] = append(d.I32[name], int64(binary.LittleEndian.Uint32(b[4*i:])))
			case "i32":
				d.I32[name] = append(d.I32[name], int64(int32(binary.LittleEndian.Uint32(b[4*i:]))))
			}
		}
	}
	return d
}

// polygonArea is the area of a planar polygon (half the norm of the sum of
// cross products, Newell).
func polygonArea(p []geom.Vec3) float64 {
	var s geom.Vec3
	for i := range p {
		s = s.Add(p[i].Cross(p[(i+1)%len(p)]))
	}
	return s.Norm() / 2
}

func near32(a float32, b float64, tol float64) bool {
	return math.Abs(float64(a)-b) <= tol*math.Max(1, math.Abs(b))
}

func TestEncodeRecording(t *testing.T) {
	sceneDir, recDir := sampleRecording(t, "pile-b24-k180-s1", 180, 3)
	s := recordingScene(t, sceneDir, recDir)
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	d := decode(t, data)
	h := d.Header
	if h.Frames != len(s.Frames) || len(h.Bodies) != len(s.Bodies) || len(h.Meshes) != len(s.Meshes) {
		t.Fatalf("header: %d frames, %d bodies, %d meshes; want %d, %d, %d", h.Frames, len(h.Bodies), len(h.Meshes), len(s.Frames), len(s.Bodies), len(s.Meshes))
	}
	if h.Up != [3]float64{0, 0, 1} {
		t.Errorf("up %v, want +z (against gravity)", h.Up)
	}
	// Triangles: per mesh they cover the faces' area.
	vs, is, V, I := d.I32["mesh_vertex_start"], d.I32["mesh_index_start"], d.F32["vertices"], d.I32["indices"]
	for m, sm := range s.Meshes {
		mm := sm.Mesh
		want := 0.0
		for f := 0; f+1 < len(mm.FaceStart); f++ {
			var poly []geom.Vec3
			for _, v := range mm.FaceVerts[mm.FaceStart[f]:mm.FaceStart[f+1]] {
				poly = append(poly, mm.Verts[v])
			}
			want += polygonArea(poly)
		}
		got := 0.0
		for k := is[m]; k < is[m+1]; k += 3 {
			var tri [3]geom.Vec3
			for j := range 3 {
				v := vs[m] + I[k+int64(j)]
				if v >= vs[m+1] {
					t.Fatalf("mesh %d: index %d beyond its vertices", m, I[k+int64(j)])
				}
				tri[j] = geom.Vec3{X: float64(V[3*v]), Y: float64(V[3*v+1]), Z: float64(V[3*v+2])}
			}
			got += polygonArea(tri[:])
		}
		if math.Abs(got-want) > 1e-5*want {
			t.Errorf("mesh %d (%s): triangles cover %.9g, faces %.9g", m, sm.Name, got, want)
		}
	}
	// Simplified levels: within their sections, coarser and coarser, each
	// at most half the triangles of the one before; the torus has some.
	ls, le, lvs, lis := d.I32["lod_start"], d.F32["lod_error"], d.I32["lod_vertex_start"], d.I32["lod_index_start"]
	if len(ls) != len(s.Meshes)+1 || len(lvs) != len(le)+1 || len(lis) != len(le)+1 || int(ls[len(s.Meshes)]) != len(le) {
		t.Fatalf("level sections: %d mesh starts, %d errors, %d vertex starts, %d index starts", len(ls), len(le), len(lvs), len(lis))
	}
	torusLevels := 0
	for m, sm := range s.Meshes {
		last, lastErr := (is[m+1]-is[m])/3, float32(0)
		for l := ls[m]; l < ls[m+1]; l++ {
			n := (lis[l+1] - lis[l]) / 3
			if 2*n > last || le[l] < lastErr {
				t.Errorf("mesh %d level %d: %d triangles after %d, error %v after %v", m, l-ls[m]+1, n, last, le[l], lastErr)
			}
			for k := lis[l]; k < lis[l+1]; k++ {
				if v := lvs[l] + d.I32["lod_indices"][k]; v >= lvs[l+1] {
					t.Fatalf("mesh %d level %d: index %d beyond its vertices", m, l-ls[m]+1, d.I32["lod_indices"][k])
				}
			}
			last, lastErr = n, le[l]
		}
		if strings.HasPrefix(sm.Name, "torus") {
			torusLevels += int(ls[m+1] - ls[m])
		}
	}
	if torusLevels == 0 {
		t.Error("the tori (600 triangles) have no simpler level")
	}
	// Poses, steps, times and figures of every frame.
	o := geom.Vec3{X: h.Origin[0], Y: h.Origin[1], Z: h.Origin[2]}
	P := d.F32["poses"]
	nb := len(s.Bodies)
	for f, fr := range s.Frames {
		if d.F64["times"][f] != fr.Time || d.I32["steps"][f] != int64(fr.Step) {
			t.Fatalf("frame %d: time %v step %d, want %v %d", f, d.F64["times"][f], d.I32["steps"][f], fr.Time, fr.Step)
		}
		for b, p := range fr.Poses {
			x := P[7*(f*nb+b):]
			w := p.P.Sub(o)
			if !near32(x[0], w.X, 1e-6) || !near32(x[1], w.Y, 1e-6) || !near32(x[2], w.Z, 1e-6) ||
				!near32(x[3], p.Q.W, 1e-6) || !near32(x[4], p.Q.X, 1e-6) || !near32(x[5], p.Q.Y, 1e-6) || !near32(x[6], p.Q.Z, 1e-6) {
				t.Fatalf("frame %d body %d: pose %v, want %v - origin %v", f, b, x[:7], p, o)
			}
		}
		for k, want := range fr.Figures {
			if got := d.F32["figures"][f*len(s.Figures)+k]; !near32(got, want, 1e-6) {
				t.Errorf("frame %d figure %d: %v, want %v", f, k, got, want)
			}
		}
		ms := d.I32["marker_start"]
		if int(ms[f+1]-ms[f]) != len(fr.Markers) {
			t.Fatalf("frame %d: %d markers, want %d", f, ms[f+1]-ms[f], len(fr.Markers))
		}
		for j, m := range fr.Markers {
			k := int(ms[f]) + j
			x := d.F32["markers"][8*k:]
			p := m.Point.Sub(o)
			if !near32(x[0], p.X, 1e-6) || !near32(x[1], p.Y, 1e-6) || !near32(x[2], p.Z, 1e-6) ||
				!near32(x[3], m.Normal.X, 1e-6) || !near32(x[4], m.Normal.Y, 1e-6) || !near32(x[5], m.Normal.Z, 1e-6) ||
				!near32(x[6], m.Depth, 1e-6) || !near32(x[7], m.Time, 1e-6) {
				t.Fatalf("frame %d marker %d: %v, want %+v", f, j, x[:8], m)
			}
			ids := d.I32["marker_ids"][3*k:]
			if ids[0] != int64(m.A) || ids[1] != int64(m.B) || ids[2] != -1 {
				t.Fatalf("frame %d marker %d: ids %v, want %d %d -1", f, j, ids[:3], m.A, m.B)
			}
		}
	}
}

func TestFromRecording(t *testing.T) {
	const steps, k = 180, 7
	sceneDir, recDir := sampleRecording(t, "pile-b24-k180-s1", steps, k)
	sc, rec := readRecording(t, sceneDir, recDir)
	s, err := FromRecording(sc, rec)
	if err != nil {
		t.Fatal(err)
	}
	recorded := simio.RecordedSteps(steps, k)
	if len(s.Frames) != len(recorded) {
		t.Fatalf("%d frames, want %d", len(s.Frames), len(recorded))
	}
	// Contacts by step, counted directly from the file's rows.
	byStep := map[int][]simio.Contact{}
	for _, c := range rec.Contacts {
		byStep[c.Step] = append(byStep[c.Step], c)
	}
	shown := 0
	for f, fr := range s.Frames {
		if fr.Step != recorded[f] || fr.Time != float64(recorded[f])*sc.Dt {
			t.Fatalf("frame %d: step %d time %v, want step %d", f, fr.Step, fr.Time, recorded[f])
		}
		for id, b := range sc.Bodies {
			want := sc.Initial[id].Pose
			if !b.Static {
				for j, rid := range rec.Bodies {
					if rid == id {
						want = rec.Frames[f].States[j].Pose
					}
				}
			}
			if fr.Poses[id] != want {
				t.Fatalf("frame %d body %d: pose %v, want %v", f, id, fr.Poses[id], want)
			}
		}
		cs := byStep[fr.Step]
		if len(fr.Markers) != len(cs) {
			t.Fatalf("frame %d (step %d): %d markers, want %d contacts", f, fr.Step, len(fr.Markers), len(cs))
		}
		depth := 0.0
		for j, c := range cs {
			m := fr.Markers[j]
			if m.A != c.A || m.B != c.B || m.Point != c.Point || m.Normal != c.Normal || m.Depth != c.Depth {
				t.Fatalf("frame %d marker %d: %+v, want contact %+v", f, j, m, c)
			}
			depth = math.Max(depth, c.Depth)
		}
		if fr.Figures[0] != float64(len(cs)) || fr.Figures[1] != depth {
			t.Fatalf("frame %d: figures %v, want %d contacts, depth %v", f, fr.Figures, len(cs), depth)
		}
		shown += len(cs)
	}
	if shown == 0 {
		t.Fatal("no contact shown: the test recording should bounce bodies off the floor")
	}
	// Contacts of unrecorded steps are not shown.
	if len(rec.Contacts) != shown {
		t.Fatalf("%d contacts in the recording, %d shown; the generator records contacts at recorded steps only", len(rec.Contacts), shown)
	}

	// A recording of another scene, or one missing a dynamic body.
	other := *rec
	other.Scene = "tower-b8-k240-s2"
	if _, err := FromRecording(sc, &other); !errors.Is(err, ErrScene) || !strings.Contains(err.Error(), "tower-b8-k240-s2") {
		t.Errorf("recording of another scene: %v", err)
	}
	short := *rec
	short.Bodies = rec.Bodies[1:]
	if _, err := FromRecording(sc, &short); !errors.Is(err, ErrScene) || !strings.Contains(err.Error(), "dynamic body 1 ") {
		t.Errorf("recording without body 1: %v", err)
	}
	bad := *rec
	bad.Bodies = append([]int{0}, rec.Bodies[1:]...)
	if _, err := FromRecording(sc, &bad); !errors.Is(err, ErrScene) || !strings.Contains(err.Error(), "recorded body 0") {
		t.Errorf("recording of the static body 0: %v", err)
	}
}

func TestFindScene(t *testing.T) {
	root := t.TempDir()
	mk := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "scene.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := filepath.Join(root, "runs", "pile-rec")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := FindScene(rec, "pile"); got != "" {
		t.Errorf("no scene anywhere: found %q", got)
	}
	mk(filepath.Join(root, "pile"))
	if got := FindScene(rec, "pile"); got != filepath.Join(root, "pile") {
		t.Errorf("scene beside the recording's parent: found %q", got)
	}
	mk(filepath.Join(root, "runs", "pile"))
	if got := FindScene(rec, "pile"); got != filepath.Join(root, "runs", "pile") {
		t.Errorf("scene beside the recording: found %q", got)
	}
	mk(filepath.Join(rec, "scene"))
	if got := FindScene(rec, "pile"); got != filepath.Join(rec, "scene") {
		t.Errorf("scene inside the recording: found %q", got)
	}
	if got := FindScene(filepath.Join(root, "x"), "../runs/pile"); got != "" {
		t.Errorf("a scene name with a path must not be followed: found %q", got)
	}
}

func TestFromScrew(t *testing.T) {
	s := toriScene(t)
	tor := s.Meshes[0].Mesh
	// The query of toriScene, to compare against.
	var p [4]geom.Pose
	upright := geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)
	p[0] = geom.Pose{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: upright}
	p[1] = geom.Pose{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(upright)}
	p[2], p[3] = geom.PoseIdentity(), geom.PoseIdentity()
	cs, err := screw.NewDetector().Detect(tor, tor, p[0], p[1], p[2], p[3], &screw.Options{Properness: screw.ProperOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Frames) < 201 || s.Frames[0].Time != 0 || s.Frames[len(s.Frames)-1].Time != 1 {
		t.Fatalf("%d frames from t=%v to %v", len(s.Frames), s.Frames[0].Time, s.Frames[len(s.Frames)-1].Time)
	}
	marked := 0
	for f, fr := range s.Frames {
		if f > 0 && fr.Time <= s.Frames[f-1].Time {
			t.Fatalf("frame %d: time %v not after %v", f, fr.Time, s.Frames[f-1].Time)
		}
		if fr.Poses[0] != geom.ScrewPose(p[0], p[1], fr.Time) || fr.Poses[1] != geom.ScrewPose(p[2], p[3], fr.Time) {
			t.Fatalf("frame %d: poses are not the screw motion's at t=%v", f, fr.Time)
		}
		for _, m := range fr.Markers {
			if m.Time != fr.Time {
				t.Errorf("frame %d (t=%v): marker at t=%v", f, fr.Time, m.Time)
			}
			marked++
		}
		if fr.Figures[1] != float64(marked) {
			t.Errorf("frame %d: %v collisions up to t, want %d", f, fr.Figures[1], marked)
		}
	}
	if marked != len(cs) {
		t.Fatalf("%d collisions marked, want %d", marked, len(cs))
	}
	for _, c := range cs {
		found := false
		for _, fr := range s.Frames {
			for _, m := range fr.Markers {
				if m.Time == c.Time && m.Point == c.Point && m.Normal == c.Normal &&
					strings.HasPrefix(m.Label, c.Kind.String()+" ") && strings.Contains(m.Label, "properness") {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("collision %v is not marked at its time with its kind and properness", c)
		}
	}
	if _, err := FromScrew("a", "b", tor, tor, p, []screw.Collision{{Time: 1.5}}, 10); !errors.Is(err, ErrScene) {
		t.Errorf("collision at t=1.5: %v", err)
	}
}

// validScene is a small scene for the validation and page tests.
func validScene() *Scene {
	cube := shapes.Cube(1)
	s := &Scene{Title: "two cubes <&>", TimeUnit: "s", Meshes: []Mesh{{Name: "cube", Mesh: cube}},
		Bodies: []Body{{Mesh: 0}, {Mesh: 0, Static: true}}, Figures: []string{"n"}}
	for f := range 3 {
		s.Frames = append(s.Frames, Frame{Time: float64(f), Step: f,
			Poses:   []geom.Pose{{P: geom.Vec3{X: float64(f)}, Q: geom.QuatIdentity()}, {P: geom.Vec3{Z: -2}, Q: geom.QuatIdentity()}},
			Markers: []Marker{{A: 0, B: 1, Point: geom.Vec3{X: float64(f)}, Normal: geom.Vec3{Z: 1}, Time: float64(f), Label: "x"}},
			Figures: []float64{float64(f)}})
	}
	return s
}

func TestValidate(t *testing.T) {
	if err := validScene().Validate(); err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, c := range []struct {
		want string
		edit func(s *Scene)
	}{
		{"no bodies", func(s *Scene) { s.Bodies = nil }},
		{"no frames", func(s *Scene) { s.Frames = nil }},
		{"rate", func(s *Scene) { s.Rate = -1 }},
		{"up", func(s *Scene) { s.Up.X = nan }},
		{"mesh 0 (\"cube\") is empty", func(s *Scene) { s.Meshes[0].Mesh = nil }},
		{"body 1: mesh 3", func(s *Scene) { s.Bodies[1].Mesh = 3 }},
		{"frame 2: time", func(s *Scene) { s.Frames[2].Time = 0.5 }},
		{"frame 1: 1 poses for 2 bodies", func(s *Scene) { s.Frames[1].Poses = s.Frames[1].Poses[:1] }},
		{"frame 0 body 1: pose not finite", func(s *Scene) { s.Frames[0].Poses[1].Q.W = math.Inf(1) }},
		{"frame 2: 0 figures for 1 names", func(s *Scene) { s.Frames[2].Figures = nil }},
		{"frame 1: figure 0 is NaN", func(s *Scene) { s.Frames[1].Figures[0] = nan }},
		{"frame 0 marker 0: not finite", func(s *Scene) { s.Frames[0].Markers[0].Depth = nan }},
		{"frame 1 body 0: pose not finite or beyond", func(s *Scene) { s.Frames[1].Poses[0].P.Y = 1e300 }},
		{"vertex 0 is not finite or beyond", func(s *Scene) { s.Meshes[0].Mesh = shapes.Cube(1e16) }},
		{"frame 2 marker 0: bodies 0, 2", func(s *Scene) { s.Frames[2].Markers[0].B = 2 }},
	} {
		s := validScene()
		c.edit(s)
		err := s.Validate()
		if !errors.Is(err, ErrScene) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
		if _, err := s.Encode(); err == nil {
			t.Errorf("%s: Encode accepted the scene", c.want)
		}
	}
}

// chunkRE finds the base64 chunks of a self-contained page.
var chunkRE = regexp.MustCompile(`<script type="application/octet-stream" class="viewer-chunk">([^<]*)</script>`)

func TestWriteHTML(t *testing.T) {
	s := validScene()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	data, _ := s.Encode()
	var got []byte
	for _, m := range chunkRE.FindAllStringSubmatch(page, -1) {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b...)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("the page's chunks hold %d bytes that differ from the %d of Encode", len(got), len(data))
	}
	// Self-contained: every module inline, nothing loaded from elsewhere.
	for _, m := range modules {
		if !strings.Contains(page, `id="`+m.id+`"`) {
			t.Errorf("module %s is not inline", m.file)
		}
	}
	if regexp.MustCompile(`(?i)<(script|link|img)[^>]*\s(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page loads something from the network")
	}
	if !strings.Contains(page, "two cubes &lt;&amp;&gt;") || strings.Contains(page, "two cubes <&>") {
		t.Error("the title is not escaped")
	}
	// A large scene is cut into several chunks that join up again.
	big := validScene()
	for f := 3; f < 40000; f++ {
		fr := big.Frames[2]
		fr.Time = float64(f)
		big.Frames = append(big.Frames, fr)
	}
	buf.Reset()
	if err := WriteHTML(&buf, big); err != nil {
		t.Fatal(err)
	}
	chunks := chunkRE.FindAllStringSubmatch(buf.String(), -1)
	if len(chunks) < 2 {
		t.Fatalf("%d chunks for %d frames", len(chunks), len(big.Frames))
	}
	data, _ = big.Encode()
	got = got[:0]
	for _, m := range chunks {
		b, _ := base64.StdEncoding.DecodeString(m[1])
		got = append(got, b...)
	}
	if !bytes.Equal(got, data) {
		t.Error("the chunks of a large scene do not join up to its data")
	}
}

func TestHandler(t *testing.T) {
	s := validScene()
	h, err := Handler(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (int, string, []byte) {
		r, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, r.Header.Get("Content-Type"), b
	}
	data, _ := s.Encode()
	if code, ct, b := get("/data.bin"); code != 200 || ct != "application/octet-stream" || !bytes.Equal(b, data) {
		t.Errorf("/data.bin: %d %s, %d bytes (want %d)", code, ct, len(b), len(data))
	}
	if code, ct, b := get("/"); code != 200 || !strings.HasPrefix(ct, "text/html") || bytes.Contains(b, []byte("viewer-chunk\">")) {
		t.Errorf("/: %d %s", code, ct)
	}
	for _, m := range modules {
		if code, ct, b := get("/" + m.file); code != 200 || !strings.HasPrefix(ct, "text/javascript") || !bytes.Equal(b, asset(m.file)) {
			t.Errorf("/%s: %d %s", m.file, code, ct)
		}
	}
	if code, _, b := get("/three-LICENSE"); code != 200 || !bytes.Contains(b, []byte("MIT")) {
		t.Errorf("/three-LICENSE: %d", code)
	}
	if code, _, _ := get("/nothing.js"); code != 404 {
		t.Errorf("/nothing.js: %d, want 404", code)
	}
	if _, err := Handler(&Scene{}); !errors.Is(err, ErrScene) {
		t.Errorf("empty scene: %v", err)
	}
}

// FuzzEncode builds scenes from arbitrary bytes (counts, indices and numbers,
// NaN and infinities included): Encode must return an error or data that
// decodes to the scene's counts, never panic.
func FuzzEncode(f *testing.F) {
	f.Add([]byte{2, 3, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0xf0})
	f.Add([]byte{1, 1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf8, 0x7f})
	f.Add([]byte{0})
	cube := shapes.Cube(1)
	f.Fuzz(func(t *testing.T, in []byte) {
		next := func() byte {
			if len(in) == 0 {
				return 0
			}
			b := in[0]
			in = in[1:]
			return b
		}
		num := func() float64 {
			var b [8]byte
			for i := range b {
				b[i] = next()
			}
			return math.Float64frombits(binary.BigEndian.Uint64(b[:]))
		}
		nb, nf := int(next()%5), int(next()%5)
		s := &Scene{Meshes: []Mesh{{Name: "cube", Mesh: cube}}, Figures: []string{"x"}}
		for range nb {
			s.Bodies = append(s.Bodies, Body{Mesh: int(int8(next())) % 3, Static: next()%2 == 0})
		}
		for range nf {
			fr := Frame{Time: num(), Step: int(int8(next())), Figures: []float64{num()}}
			for range nb {
				fr.Poses = append(fr.Poses, geom.Pose{P: geom.Vec3{X: num()}, Q: geom.Quat{W: num(), X: num()}})
			}
			for range int(next() % 3) {
				fr.Markers = append(fr.Markers, Marker{A: int(int8(next())), B: int(int8(next())), Point: geom.Vec3{Y: num()}, Normal: geom.Vec3{Z: 1}, Depth: num()})
			}
			s.Frames = append(s.Frames, fr)
		}
		data, err := s.Encode()
		if err != nil {
			if !errors.Is(err, ErrScene) {
				t.Fatalf("error not wrapping ErrScene: %v", err)
			}
			return
		}
		d := decode(t, data)
		if d.Header.Frames != nf || len(d.Header.Bodies) != nb || len(d.F32["poses"]) != 7*nf*nb {
			t.Fatalf("decoded %d frames %d bodies %d pose values; want %d %d", d.Header.Frames, len(d.Header.Bodies), len(d.F32["poses"]), nf, nb)
		}
		for _, x := range d.F32["poses"] {
			if math.IsNaN(float64(x)) {
				t.Fatal("NaN pose in the data")
			}
		}
	})
}
