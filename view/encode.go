package view

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/collide-go/collide/geom"
)

// Magic starts the binary frame data the page reads ("CVW1": collide viewer,
// version 1), followed by the header length (uint32, little endian), the
// JSON header, zero padding to a multiple of 8 bytes, and the sections the
// header lists, each at a multiple of 8 bytes from the start.
const Magic = "CVW1"

// header is the JSON header of the binary data; the page reads these names.
type header struct {
	Title      string            `json:"title"`
	Info       []string          `json:"info"`
	TimeUnit   string            `json:"time_unit"`
	Rate       float64           `json:"rate"`
	Up         [3]float64        `json:"up"`
	Origin     [3]float64        `json:"origin"` // subtracted from every position
	Radius     float64           `json:"radius"` // half the diagonal of the frame-0 bounding box
	NormalLen  float64           `json:"normal_length"`
	Meshes     []headerMesh      `json:"meshes"`
	Bodies     []headerBody      `json:"bodies"`
	Frames     int               `json:"frames"`
	Figures    []string          `json:"figures"`
	Labels     []string          `json:"labels"`
	MarkerList bool              `json:"marker_list"`
	Sections   map[string]region `json:"sections"`
}

type headerMesh struct {
	Name  string `json:"name"`
	Color string `json:"color"`
}

type headerBody struct {
	Mesh   int    `json:"mesh"`
	Static bool   `json:"static"`
	Label  string `json:"label,omitempty"`
}

// region locates a typed array: its element type (f32, f64, u32, i32), byte
// offset from the start of the data and element count.
type region struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Count  int    `json:"count"`
}

// Encode returns the binary frame data of s that the page reads. Sections:
//
//	mesh_vertex_start u32[meshes+1]  first vertex (not coordinate) of each mesh
//	vertices          f32[3 V]       mesh-local positions
//	mesh_index_start  u32[meshes+1]  first index of each mesh's triangles
//	indices           u32[3 T]       triangles (vertex numbers local to the mesh)
//	lod_start         u32[meshes+1]  first simplified level of each mesh
//	lod_error         f32[L]         each level's error: the largest distance
//	                                 from a vertex of the mesh to the one replacing it
//	lod_vertex_start  u32[L+1]       first vertex of each level
//	lod_vertices      f32[3 LV]      mesh-local positions
//	lod_index_start   u32[L+1]       first index of each level's triangles
//	lod_indices       u32[3 LT]      triangles (vertex numbers local to the level)
//	times             f64[frames]
//	steps             i32[frames]
//	poses             f32[frames*bodies*7]  px py pz qw qx qy qz, minus origin
//	marker_start      u32[frames+1]
//	markers           f32[8 M]       px py pz nx ny nz depth time
//	marker_ids        i32[3 M]       a b label (-1: none)
//	figures           f32[frames*figures]
//
// Positions are stored relative to the frame-0 centre (header origin), so
// float32 keeps their precision far from the world origin. The levels of a
// mesh (none for a mesh of few triangles) are simplified versions of it,
// coarsest last, that the page draws for bodies small on screen.
func (s *Scene) Encode() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	h := header{Title: s.Title, Info: s.Info, TimeUnit: s.TimeUnit, Rate: s.Rate, Frames: len(s.Frames),
		Figures: s.Figures, Labels: []string{}, MarkerList: s.MarkerList, Sections: map[string]region{}}
	if h.Info == nil {
		h.Info = []string{}
	}
	if h.Figures == nil {
		h.Figures = []string{}
	}
	if h.Rate == 0 {
		h.Rate = 1
	}
	up := s.Up
	if n, ok := up.Normalize(); ok {
		up = n
	} else {
		up = geom.Vec3{Z: 1}
	}
	h.Up = [3]float64{up.X, up.Y, up.Z}

	// Origin and size from the bodies' bounding spheres in frame 0: the
	// moving bodies' when there are any (a long static bar or a wide floor
	// would leave them small in the picture), else all.
	radii := make([]float64, len(s.Meshes))
	for i, m := range s.Meshes {
		for _, v := range m.Mesh.Verts {
			radii[i] = math.Max(radii[i], v.Norm())
		}
	}
	box := geom.EmptyAABB()
	for _, moving := range []bool{true, false} {
		for b, body := range s.Bodies {
			if moving && body.Static {
				continue
			}
			p := s.Frames[0].Poses[b]
			r := radii[body.Mesh]
			box = box.AddPoint(p.P.Sub(geom.Vec3{X: r, Y: r, Z: r})).AddPoint(p.P.Add(geom.Vec3{X: r, Y: r, Z: r}))
		}
		if !box.IsEmpty() {
			break
		}
	}
	o := box.Center()
	h.Origin = [3]float64{o.X, o.Y, o.Z}
	h.Radius = math.Max(box.Diagonal()/2, 1e-9)
	var dyn []float64
	for _, b := range s.Bodies {
		if !b.Static {
			dyn = append(dyn, radii[b.Mesh])
		}
	}
	if len(dyn) == 0 {
		dyn = append(dyn, radii...)
	}
	sort.Float64s(dyn)
	h.NormalLen = 0.6 * dyn[len(dyn)/2]
	if !(h.NormalLen > 0) {
		h.NormalLen = h.Radius / 20
	}

	for i, m := range s.Meshes {
		h.Meshes = append(h.Meshes, headerMesh{Name: m.Name, Color: meshColor(i)})
	}
	for _, b := range s.Bodies {
		h.Bodies = append(h.Bodies, headerBody{Mesh: b.Mesh, Static: b.Static, Label: b.Label})
	}

	var sec sections
	vstart := make([]uint32, 0, len(s.Meshes)+1)
	istart := make([]uint32, 0, len(s.Meshes)+1)
	var verts, lverts, lodErr []float32
	var idx, lidx, lodStart, lvStart, liStart []uint32
	for _, m := range s.Meshes {
		vstart = append(vstart, uint32(len(verts)/3))
		istart = append(istart, uint32(len(idx)))
		for _, v := range m.Mesh.Verts {
			verts = append(verts, float32(v.X), float32(v.Y), float32(v.Z))
		}
		tris := triangles(m.Mesh)
		idx = append(idx, tris...)
		lodStart = append(lodStart, uint32(len(lodErr)))
		for _, l := range lodLevels(m.Mesh.Verts, tris) {
			lodErr = append(lodErr, float32(l.err))
			lvStart = append(lvStart, uint32(len(lverts)/3))
			liStart = append(liStart, uint32(len(lidx)))
			lverts = append(lverts, l.verts...)
			lidx = append(lidx, l.idx...)
		}
	}
	vstart = append(vstart, uint32(len(verts)/3))
	istart = append(istart, uint32(len(idx)))
	lodStart = append(lodStart, uint32(len(lodErr)))
	lvStart = append(lvStart, uint32(len(lverts)/3))
	liStart = append(liStart, uint32(len(lidx)))

	nf, nb := len(s.Frames), len(s.Bodies)
	times := make([]float64, nf)
	steps := make([]int32, nf)
	poses := make([]float32, 0, nf*nb*7)
	mstart := make([]uint32, 0, nf+1)
	var marks []float32
	var mids []int32
	figs := make([]float32, 0, nf*len(s.Figures))
	labels := map[string]int32{}
	for f := range s.Frames {
		fr := &s.Frames[f]
		times[f] = fr.Time
		steps[f] = int32(max(min(fr.Step, math.MaxInt32), -1))
		for _, p := range fr.Poses {
			q, ok := p.Q.Normalize()
			if !ok {
				q = geom.QuatIdentity()
			}
			poses = append(poses, float32(p.P.X-o.X), float32(p.P.Y-o.Y), float32(p.P.Z-o.Z),
				float32(q.W), float32(q.X), float32(q.Y), float32(q.Z))
		}
		mstart = append(mstart, uint32(len(mids)/3))
		for _, m := range fr.Markers {
			marks = append(marks, float32(m.Point.X-o.X), float32(m.Point.Y-o.Y), float32(m.Point.Z-o.Z),
				float32(m.Normal.X), float32(m.Normal.Y), float32(m.Normal.Z), float32(m.Depth), float32(m.Time))
			l := int32(-1)
			if m.Label != "" {
				var ok bool
				if l, ok = labels[m.Label]; !ok {
					l = int32(len(h.Labels))
					labels[m.Label] = l
					h.Labels = append(h.Labels, m.Label)
				}
			}
			mids = append(mids, int32(m.A), int32(m.B), l)
		}
		for _, x := range fr.Figures {
			figs = append(figs, float32(x))
		}
	}
	mstart = append(mstart, uint32(len(mids)/3))
	for _, a := range []struct {
		name string
		v    any
	}{
		{"mesh_vertex_start", vstart}, {"vertices", verts}, {"mesh_index_start", istart}, {"indices", idx},
		{"lod_start", lodStart}, {"lod_error", lodErr}, {"lod_vertex_start", lvStart}, {"lod_vertices", lverts},
		{"lod_index_start", liStart}, {"lod_indices", lidx},
		{"times", times}, {"steps", steps}, {"poses", poses}, {"marker_start", mstart}, {"markers", marks},
		{"marker_ids", mids}, {"figures", figs},
	} {
		sec.add(a.name, a.v)
	}

	h.Sections = sec.regions
	// The header's length fixes the offsets, which are in the header: lay
	// the sections out after a header of the length the offsets give, until
	// the length no longer changes.
	base := 0
	var js []byte
	for range 8 {
		for k, r := range sec.regions {
			r.Offset = sec.rel[k] + base
			h.Sections[k] = r
		}
		var err error
		if js, err = json.Marshal(&h); err != nil {
			return nil, fmt.Errorf("view: header: %w", err)
		}
		nb := pad8(8 + len(js))
		if nb == base {
			break
		}
		base = nb
	}
	out := make([]byte, base, base+len(sec.data))
	copy(out, Magic)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(js)))
	copy(out[8:], js)
	for i := 8 + len(js); i < base; i++ {
		out[i] = ' '
	}
	return append(out, sec.data...), nil
}

func pad8(n int) int { return (n + 7) &^ 7 }

// sections accumulates the typed arrays, each 8-byte aligned relative to the
// start of the section data.
type sections struct {
	data    []byte
	regions map[string]region
	rel     map[string]int
}

// add appends the array v ([]float32, []float64, []uint32 or []int32),
// little endian.
func (s *sections) add(name string, v any) {
	if s.regions == nil {
		s.regions, s.rel = map[string]region{}, map[string]int{}
	}
	for len(s.data)%8 != 0 {
		s.data = append(s.data, 0)
	}
	n := len(s.data)
	s.rel[name] = n
	var typ string
	switch v := v.(type) {
	case []float32:
		typ = "f32"
		for _, x := range v {
			s.data = binary.LittleEndian.AppendUint32(s.data, math.Float32bits(x))
		}
	case []float64:
		typ = "f64"
		for _, x := range v {
			s.data = binary.LittleEndian.AppendUint64(s.data, math.Float64bits(x))
		}
	case []uint32:
		typ = "u32"
		for _, x := range v {
			s.data = binary.LittleEndian.AppendUint32(s.data, x)
		}
	case []int32:
		typ = "i32"
		for _, x := range v {
			s.data = binary.LittleEndian.AppendUint32(s.data, uint32(x))
		}
	default:
		panic(fmt.Sprintf("view: section %s of type %T", name, v)) // cannot happen: Encode passes only these types
	}
	size := map[string]int{"f32": 4, "f64": 8, "u32": 4, "i32": 4}[typ]
	s.regions[name] = region{Type: typ, Count: (len(s.data) - n) / size}
}

// meshColor spreads n colours around the hue circle (golden-angle steps, so
// neighbouring meshes differ), at a saturation and lightness that read well
// on the page's background.
func meshColor(i int) string {
	h := math.Mod(0.08+float64(i)*0.618033988749895, 1)
	s, l := 0.62, 0.55
	if i%2 == 1 {
		l = 0.45
	}
	r, g, b := hsl(h, s, l)
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

func hsl(h, s, l float64) (r, g, b uint8) {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h * 6
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r1, g1, b1 float64
	switch int(hp) % 6 {
	case 0:
		r1, g1 = c, x
	case 1:
		r1, g1 = x, c
	case 2:
		g1, b1 = c, x
	case 3:
		g1, b1 = x, c
	case 4:
		r1, b1 = x, c
	default:
		r1, b1 = c, x
	}
	m := l - c/2
	to := func(v float64) uint8 { return uint8(math.Round(255 * math.Min(1, math.Max(0, v+m)))) }
	return to(r1), to(g1), to(b1)
}
