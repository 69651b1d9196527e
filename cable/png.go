package cable

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"

	"github.com/collide-go/collide/geom"
)

// WritePNG draws the same side view as WriteSVG as a PNG image (without
// the title).
func (s *System) WritePNG(w io.Writer, v View) error {
	if v.MinX == 0 && v.MaxX == 0 && v.MinZ == 0 && v.MaxZ == 0 {
		b := geom.AABBOf(s.x...)
		pad := 0.03 * math.Max(b.Max.X-b.Min.X, b.Max.Z-b.Min.Z)
		v.MinX, v.MaxX, v.MinZ, v.MaxZ = b.Min.X-pad, b.Max.X+pad, b.Min.Z-pad, b.Max.Z+pad
	}
	if v.Width == 0 {
		v.Width = 600
	}
	if !(v.MaxX > v.MinX) || !(v.MaxZ > v.MinZ) || v.Width <= 0 || v.Width > 1<<14 {
		return fmt.Errorf("cable: png: bad view %+v", v)
	}
	sc := float64(v.Width) / (v.MaxX - v.MinX)
	h := int(math.Ceil((v.MaxZ - v.MinZ) * sc))
	if h <= 0 || h > 1<<14 {
		return fmt.Errorf("cable: png: picture height %d out of range", h)
	}
	img := image.NewRGBA(image.Rect(0, 0, v.Width, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	px := func(p geom.Vec3) (float64, float64) { return (p.X - v.MinX) * sc, (v.MaxZ - p.Z) * sc }
	blend := func(x, y int, c color.RGBA, a float64) {
		if x < 0 || y < 0 || x >= v.Width || y >= h {
			return
		}
		o := img.PixOffset(x, y)
		for k, cv := range [3]uint8{c.R, c.G, c.B} {
			img.Pix[o+k] = uint8(float64(img.Pix[o+k])*(1-a) + float64(cv)*a + 0.5)
		}
	}
	shade := color.RGBA{150, 150, 150, 255}
	for _, t := range s.tris {
		ax, ay := px(s.x[t[0]])
		bx, by := px(s.x[t[1]])
		cx, cy := px(s.x[t[2]])
		den := (by-cy)*(ax-cx) + (cx-bx)*(ay-cy)
		if den == 0 {
			continue
		}
		x0, x1 := int(math.Max(0, math.Floor(math.Min(ax, math.Min(bx, cx))))), int(math.Min(float64(v.Width-1), math.Ceil(math.Max(ax, math.Max(bx, cx)))))
		y0, y1 := int(math.Max(0, math.Floor(math.Min(ay, math.Min(by, cy))))), int(math.Min(float64(h-1), math.Ceil(math.Max(ay, math.Max(by, cy)))))
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				fx, fy := float64(x)+0.5, float64(y)+0.5
				l1 := ((by-cy)*(fx-cx) + (cx-bx)*(fy-cy)) / den
				l2 := ((cy-ay)*(fx-cx) + (ax-cx)*(fy-cy)) / den
				if l1 >= 0 && l2 >= 0 && l1+l2 <= 1 {
					blend(x, y, shade, 0.12)
				}
			}
		}
	}
	line := func(a, b geom.Vec3, c color.RGBA, width, alpha float64) {
		ax, ay := px(a)
		bx, by := px(b)
		n := int(math.Ceil(math.Hypot(bx-ax, by-ay)*2)) + 1
		r := width / 2
		for i := 0; i <= n; i++ {
			t := float64(i) / float64(n)
			x, y := ax+t*(bx-ax), ay+t*(by-ay)
			for yy := int(math.Floor(y - r)); yy <= int(math.Ceil(y+r)); yy++ {
				for xx := int(math.Floor(x - r)); xx <= int(math.Ceil(x+r)); xx++ {
					if math.Hypot(float64(xx)+0.5-x, float64(yy)+0.5-y) <= r+0.5 {
						blend(xx, yy, c, alpha)
					}
				}
			}
		}
	}
	for _, e := range s.edges {
		if s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0 {
			line(s.x[e[0]], s.x[e[1]], color.RGBA{90, 90, 90, 255}, 0.6, 0.35)
		}
	}
	chain, last := -1, int32(-1)
	for _, e := range s.edges {
		if s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0 {
			continue
		}
		if e[0] != last {
			chain++
		}
		last = e[1]
		line(s.x[e[0]], s.x[e[1]], parseHex(cableColors[chain%len(cableColors)]), 2.2, 1)
	}
	return png.Encode(w, img)
}

func parseHex(s string) color.RGBA {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}
