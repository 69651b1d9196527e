package screw

import (
	"image"
	"image/color"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Colours of the collision-screen picture.
var (
	colA     = color.RGBA{200, 40, 40, 255}
	colB     = color.RGBA{40, 80, 210, 255}
	colVirt  = color.RGBA{170, 170, 170, 255}
	colHit   = color.RGBA{0, 160, 0, 255}
	colImpro = color.RGBA{230, 150, 0, 255}
)

// maxPictureSide bounds the picture's width and height in image pixels.
const maxPictureSide = 1600

// ScreenImage computes the collisions of the query like Detect (appending
// them to dst) and draws the rasterized collision screen, like Buss's
// Fig. 14: the projected edges of A (red) and B (blue), virtual edges
// (grey) and the collisions (green; orange when improper). Rows of the
// screen run down the picture (r grows downwards), h runs to the right.
// Small screens are magnified so that every screen pixel is visible.
func (d *Detector) ScreenImage(a, b *mesh.Mesh, a0, a1, b0, b1 geom.Pose, opt *Options, dst []Collision) (*image.RGBA, []Collision, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	o.PixelRows = true
	if err := checkInput(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return nil, dst, err
	}
	if err := d.checkRange(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return nil, dst, err
	}
	d.startContacts(a, b, a0, b0, &o)
	// The picture shows the whole bodies: no culling.
	d.noCull = true
	ok := d.setup(a, b, a0, a1, b0, b1, &o) && d.slice(allIntervals)
	d.noCull = false
	if !ok {
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		fill(img, color.RGBA{255, 255, 255, 255})
		d.hits = d.hits[:0]
		return img, d.report(dst), nil
	}
	if !d.rasterize() {
		return nil, dst, errProjection()
	}
	d.scan()
	d.hits = d.hits[:0]
	d.solveAll(math.Inf(1), false)
	// Screen extent of the projected segments.
	rlo, rhi, hlo, hhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for bi := 0; bi < 2; bi++ {
		for _, s := range d.segs[bi] {
			rlo, rhi = min(rlo, s.r0, s.r1), max(rhi, s.r0, s.r1)
			hlo, hhi = min(hlo, s.h0, s.h1), max(hhi, s.h0, s.h1)
		}
	}
	if math.IsInf(rlo, 0) {
		rlo, rhi, hlo, hhi = 0, 1, 0, 1
	}
	p := d.pixel
	w := int((hhi-hlo)/p) + 3
	h := int((rhi-rlo)/p) + 3
	// Magnify small screens, shrink huge ones.
	scale := 1.0
	if m := max(w, h); m < 800 {
		scale = math.Floor(800 / float64(m))
	} else if m > maxPictureSide {
		scale = maxPictureSide / float64(m)
	}
	img := image.NewRGBA(image.Rect(0, 0, max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))))
	fill(img, color.RGBA{255, 255, 255, 255})
	toPix := func(r, hh float64) (float64, float64) {
		return ((hh-hlo)/p + 1) * scale, ((r-rlo)/p + 1) * scale
	}
	for bi := 0; bi < 2; bi++ {
		for _, s := range d.segs[bi] {
			c := colA
			if bi == 1 {
				c = colB
			}
			if s.kind == recVirt {
				c = colVirt
			}
			x0, y0 := toPix(s.r0, s.h0)
			x1, y1 := toPix(s.r1, s.h1)
			line(img, x0, y0, x1, y1, c, max(1, scale/2))
		}
	}
	for _, c := range d.hits {
		if c.Properness < d.thresh {
			continue
		}
		phi := 0.0
		if !d.trans {
			phi = math.Atan2(c.Point.X, c.Point.Z)
		}
		r, hh, _ := d.proj(c.Point, phi)
		x, y := toPix(r, hh)
		col := colHit
		if c.Properness < 0 {
			col = colImpro
		}
		sz := max(4, 2*scale)
		line(img, x-sz, y, x+sz, y, col, max(1, scale/2))
		line(img, x, y-sz, x, y+sz, col, max(1, scale/2))
	}
	return img, d.report(dst), nil
}

func fill(img *image.RGBA, c color.RGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
}

// line draws a line of the given width by stepping along it (a DDA, the
// floating-point form of Bresenham's algorithm).
func line(img *image.RGBA, x0, y0, x1, y1 float64, c color.RGBA, width float64) {
	n := int(math.Ceil(max(math.Abs(x1-x0), math.Abs(y1-y0)))) + 1
	hw := int(width / 2)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := int(x0+t*(x1-x0)), int(y0+t*(y1-y0))
		for dy := -hw; dy <= hw; dy++ {
			for dx := -hw; dx <= hw; dx++ {
				if (image.Point{x + dx, y + dy}).In(img.Rect) {
					img.SetRGBA(x+dx, y+dy, c)
				}
			}
		}
	}
}
