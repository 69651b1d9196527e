package cable

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/collide-go/collide/geom"
)

// View is a side view for WriteSVG: the picture shows x to the right and z
// up (the scene seen from +y). A zero rectangle means the bounds of all
// particles; zero Width means 600 pixels.
type View struct {
	MinX, MaxX, MinZ, MaxZ float64
	Width                  int
	// Title is written at the top of the picture.
	Title string
}

var cableColors = []string{"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// WriteSVG draws the system in a projected side view: static triangles
// shaded, static edges thin and grey, cables thick and coloured (one colour
// per chain of consecutive edges).
func (s *System) WriteSVG(w io.Writer, v View) error {
	if v.MinX == 0 && v.MaxX == 0 && v.MinZ == 0 && v.MaxZ == 0 {
		b := geom.AABBOf(s.x...)
		v.MinX, v.MaxX, v.MinZ, v.MaxZ = b.Min.X, b.Max.X, b.Min.Z, b.Max.Z
		pad := 0.03 * math.Max(v.MaxX-v.MinX, v.MaxZ-v.MinZ)
		v.MinX, v.MaxX, v.MinZ, v.MaxZ = v.MinX-pad, v.MaxX+pad, v.MinZ-pad, v.MaxZ+pad
	}
	if v.Width == 0 {
		v.Width = 600
	}
	if !(v.MaxX > v.MinX) || !(v.MaxZ > v.MinZ) || v.Width < 0 {
		return fmt.Errorf("cable: svg: empty view %+v", v)
	}
	sc := float64(v.Width) / (v.MaxX - v.MinX)
	top := 0.0
	if v.Title != "" {
		top = 24
	}
	h := int(math.Ceil((v.MaxZ-v.MinZ)*sc + top))
	px := func(p geom.Vec3) (float64, float64) { return (p.X - v.MinX) * sc, top + (v.MaxZ-p.Z)*sc }
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">`+"\n", v.Width, h)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", v.Width, h)
	if v.Title != "" {
		fmt.Fprintf(bw, "<text x=\"6\" y=\"17\">%s</text>\n", xmlEscape(v.Title))
	}
	fmt.Fprintln(bw, `<g fill="#bbb" fill-opacity="0.25" stroke="none">`)
	for _, t := range s.tris {
		ax, ay := px(s.x[t[0]])
		bx, by := px(s.x[t[1]])
		cx, cy := px(s.x[t[2]])
		fmt.Fprintf(bw, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>`+"\n", ax, ay, bx, by, cx, cy)
	}
	fmt.Fprintln(bw, `</g>`)
	fmt.Fprintln(bw, `<g stroke="#777" stroke-width="0.6">`)
	for _, e := range s.edges {
		if s.invMass[e[0]] != 0 || s.invMass[e[1]] != 0 {
			continue
		}
		ax, ay := px(s.x[e[0]])
		bx, by := px(s.x[e[1]])
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", ax, ay, bx, by)
	}
	fmt.Fprintln(bw, `</g>`)
	chain, last := -1, int32(-1)
	open := false
	for _, e := range s.edges {
		if s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0 {
			continue
		}
		if e[0] != last {
			if open {
				fmt.Fprintln(bw, `"/>`)
			}
			chain++
			ax, ay := px(s.x[e[0]])
			fmt.Fprintf(bw, `<polyline fill="none" stroke="%s" stroke-width="2.2" stroke-linejoin="round" points="%.1f,%.1f`, cableColors[chain%len(cableColors)], ax, ay)
			open = true
		}
		bx, by := px(s.x[e[1]])
		fmt.Fprintf(bw, " %.1f,%.1f", bx, by)
		last = e[1]
	}
	if open {
		fmt.Fprintln(bw, `"/>`)
	}
	fmt.Fprintln(bw, `</svg>`)
	return bw.Flush()
}

func xmlEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}
