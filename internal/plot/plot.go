// Package plot writes small SVG charts by hand: line plots with several
// series (linear or logarithmic y axis) and grouped bar charts
// (histograms), each with axes, tick labels, axis labels, a title and a
// legend. It is used by the experiment commands of collide to reproduce the
// papers' figures (e.g. Chung and Wang, Quick Collision Detection of Polytopes in Virtual Environments, Fig. 4) and
// needs nothing beyond the standard library.
package plot

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
)

// Default canvas size in pixels.
const (
	DefaultWidth  = 640
	DefaultHeight = 400
)

// palette holds the series colours, cycled.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// Series is one line of a LinePlot: points (X[i], Y[i]). Points with a
// non-finite coordinate (or Y <= 0 on a log axis) are skipped.
type Series struct {
	Name string
	X, Y []float64
}

// LinePlot is a chart of one or more series against a common x axis. The
// zero values of Width and Height mean DefaultWidth and DefaultHeight.
type LinePlot struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogY                  bool // logarithmic y axis (base 10)
	YMin                  *float64
	Width, Height         int
}

// BarSeries is one set of bars of a BarChart, one value per category.
type BarSeries struct {
	Name   string
	Values []float64
}

// BarChart draws, for every category, one bar per series side by side (a
// histogram when the categories are bins).
type BarChart struct {
	Title, XLabel, YLabel string
	Categories            []string
	Series                []BarSeries
	Width, Height         int
}

type frame struct {
	w, h                   float64
	left, right, top, bot  float64
	xmin, xmax, ymin, ymax float64
	logY                   bool
}

func (f *frame) px(x float64) float64 {
	return f.left + (x-f.xmin)/(f.xmax-f.xmin)*(f.w-f.left-f.right)
}

func (f *frame) py(y float64) float64 {
	if f.logY {
		y = math.Log10(y)
	}
	return f.h - f.bot - (y-f.ymin)/(f.ymax-f.ymin)*(f.h-f.top-f.bot)
}

func size(w, h int) (float64, float64) {
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return float64(w), float64(h)
}

func header(b *bytes.Buffer, w, h float64, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(b, `<rect width="%g" height="%g" fill="white"/>`+"\n", w, h)
	if title != "" {
		fmt.Fprintf(b, `<text x="%g" y="20" text-anchor="middle" font-size="14" font-weight="bold">%s</text>`+"\n", w/2, html.EscapeString(title))
	}
}

// axes draws the plot box, the axis labels and the y ticks; x ticks are
// drawn by the caller (numeric or categorical).
func (f *frame) axes(b *bytes.Buffer, xlabel, ylabel string) {
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="black"/>`+"\n",
		f.left, f.top, f.w-f.left-f.right, f.h-f.top-f.bot)
	if xlabel != "" {
		fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (f.left+f.w-f.right)/2, f.h-8, html.EscapeString(xlabel))
	}
	if ylabel != "" {
		fmt.Fprintf(b, `<text transform="translate(16,%g) rotate(-90)" text-anchor="middle">%s</text>`+"\n", (f.top+f.h-f.bot)/2, html.EscapeString(ylabel))
	}
	if f.logY {
		for e := math.Ceil(f.ymin - 1e-9); e <= f.ymax+1e-9; e++ {
			f.ytick(b, math.Pow(10, e), fmtTick(math.Pow(10, e)))
		}
		return
	}
	for _, t := range ticks(f.ymin, f.ymax) {
		f.ytick(b, t, fmtTick(t))
	}
}

func (f *frame) ytick(b *bytes.Buffer, y float64, label string) {
	p := f.py(y)
	fmt.Fprintf(b, `<line x1="%g" y1="%.2f" x2="%g" y2="%.2f" stroke="#ddd"/>`+"\n", f.left, p, f.w-f.right, p)
	fmt.Fprintf(b, `<text x="%g" y="%.2f" text-anchor="end">%s</text>`+"\n", f.left-4, p+4, label)
}

func (f *frame) legend(b *bytes.Buffer, names []string) {
	y := f.top + 14
	for i, n := range names {
		if n == "" {
			continue
		}
		c := palette[i%len(palette)]
		x := f.w - f.right - 150
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="12" height="12" fill="%s"/>`, x, y-10, c)
		fmt.Fprintf(b, `<text x="%g" y="%g">%s</text>`+"\n", x+16, y, html.EscapeString(n))
		y += 16
	}
}

// ticks returns about five round tick values covering [lo, hi].
func ticks(lo, hi float64) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var out []float64
	for t := math.Ceil(lo/step-1e-9) * step; t <= hi+step*1e-9; t += step {
		out = append(out, t)
	}
	return out
}

func fmtTick(v float64) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e5 || a < 1e-3 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// WriteSVG writes the line plot as an SVG document.
func (p *LinePlot) WriteSVG(w io.Writer) error {
	W, H := size(p.Width, p.Height)
	f := &frame{w: W, h: H, left: 64, right: 16, top: 32, bot: 44, logY: p.LogY}
	f.xmin, f.xmax, f.ymin, f.ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	ok := func(x, y float64) bool {
		return !math.IsNaN(x) && !math.IsInf(x, 0) && !math.IsNaN(y) && !math.IsInf(y, 0) && (!p.LogY || y > 0)
	}
	for _, s := range p.Series {
		for i := range s.X {
			if i < len(s.Y) && ok(s.X[i], s.Y[i]) {
				y := s.Y[i]
				if p.LogY {
					y = math.Log10(y)
				}
				f.xmin, f.xmax = math.Min(f.xmin, s.X[i]), math.Max(f.xmax, s.X[i])
				f.ymin, f.ymax = math.Min(f.ymin, y), math.Max(f.ymax, y)
			}
		}
	}
	if math.IsInf(f.xmin, 0) {
		f.xmin, f.xmax, f.ymin, f.ymax = 0, 1, 0, 1
	}
	if p.LogY {
		f.ymin, f.ymax = math.Floor(f.ymin), math.Ceil(f.ymax)
	} else {
		if p.YMin != nil {
			f.ymin = *p.YMin
		} else if f.ymin > 0 {
			f.ymin = 0
		}
		f.ymax += 0.05 * (f.ymax - f.ymin)
	}
	if f.xmax == f.xmin {
		f.xmin, f.xmax = f.xmin-1, f.xmax+1
	}
	if f.ymax == f.ymin {
		f.ymax = f.ymin + 1
	}
	var b bytes.Buffer
	header(&b, W, H, p.Title)
	f.axes(&b, p.XLabel, p.YLabel)
	for _, t := range ticks(f.xmin, f.xmax) {
		x := f.px(t)
		fmt.Fprintf(&b, `<line x1="%.2f" y1="%g" x2="%.2f" y2="%g" stroke="black"/>`, x, H-f.bot, x, H-f.bot+4)
		fmt.Fprintf(&b, `<text x="%.2f" y="%g" text-anchor="middle">%s</text>`+"\n", x, H-f.bot+16, fmtTick(t))
	}
	var names []string
	for i, s := range p.Series {
		c := palette[i%len(palette)]
		var pts bytes.Buffer
		for j := range s.X {
			if j < len(s.Y) && ok(s.X[j], s.Y[j]) {
				x, y := f.px(s.X[j]), f.py(s.Y[j])
				fmt.Fprintf(&pts, "%.2f,%.2f ", x, y)
				fmt.Fprintf(&b, `<circle cx="%.2f" cy="%.2f" r="3" fill="%s"/>`, x, y, c)
			}
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", bytes.TrimSpace(pts.Bytes()), c)
		names = append(names, s.Name)
	}
	f.legend(&b, names)
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteSVG writes the bar chart as an SVG document.
func (c *BarChart) WriteSVG(w io.Writer) error {
	W, H := size(c.Width, c.Height)
	f := &frame{w: W, h: H, left: 64, right: 16, top: 32, bot: 44}
	f.xmin, f.xmax = 0, float64(len(c.Categories))
	if len(c.Categories) == 0 {
		f.xmax = 1
	}
	f.ymin, f.ymax = 0, 0
	for _, s := range c.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				f.ymax = math.Max(f.ymax, v)
			}
		}
	}
	if f.ymax == 0 {
		f.ymax = 1
	}
	f.ymax *= 1.05
	var b bytes.Buffer
	header(&b, W, H, c.Title)
	f.axes(&b, c.XLabel, c.YLabel)
	ns := len(c.Series)
	slot := f.px(1) - f.px(0)
	bw := 0.8 * slot / math.Max(1, float64(ns))
	for i, cat := range c.Categories {
		x0 := f.px(float64(i))
		fmt.Fprintf(&b, `<text x="%.2f" y="%g" text-anchor="middle">%s</text>`+"\n", x0+slot/2, H-f.bot+16, html.EscapeString(cat))
		for j, s := range c.Series {
			if i >= len(s.Values) || math.IsNaN(s.Values[i]) || s.Values[i] <= 0 {
				continue
			}
			y := f.py(s.Values[i])
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>`, x0+0.1*slot+float64(j)*bw, y, bw, H-f.bot-y, palette[j%len(palette)])
		}
	}
	b.WriteString("\n")
	var names []string
	for _, s := range c.Series {
		names = append(names, s.Name)
	}
	f.legend(&b, names)
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}
