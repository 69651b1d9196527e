package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

// wellFormed parses the SVG as XML and counts elements by name.
func wellFormed(t *testing.T, data []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
		}
	}
	return count
}

func TestLinePlot(t *testing.T) {
	p := &LinePlot{Title: "t <&>", XLabel: "n", YLabel: "k", Series: []Series{
		{Name: "a", X: []float64{10, 100, 1000}, Y: []float64{1, 2, 3}},
		{Name: "b", X: []float64{10, 100, 1000}, Y: []float64{2, math.NaN(), 5}},
	}}
	var b bytes.Buffer
	if err := p.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	c := wellFormed(t, b.Bytes())
	if c["polyline"] != 2 || c["circle"] != 5 {
		t.Errorf("want 2 polylines and 5 points (NaN skipped), got %v", c)
	}
	if !strings.Contains(b.String(), "t &lt;&amp;&gt;") {
		t.Errorf("title not escaped")
	}
	p.LogY = true
	p.Series[0].Y[0] = 0 // skipped on a log axis
	b.Reset()
	if err := p.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if c := wellFormed(t, b.Bytes()); c["circle"] != 4 {
		t.Errorf("log plot: want 4 points, got %v", c)
	}
	// Empty and degenerate plots still render.
	for _, q := range []*LinePlot{{}, {Series: []Series{{X: []float64{1}, Y: []float64{1}}}}} {
		b.Reset()
		if err := q.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		wellFormed(t, b.Bytes())
	}
}

func TestBarChart(t *testing.T) {
	c := &BarChart{Title: "k", Categories: []string{"1", "2", "3"}, Series: []BarSeries{
		{Name: "x", Values: []float64{5, 3, 0}},
		{Name: "y", Values: []float64{1, 2}},
	}}
	var b bytes.Buffer
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	n := wellFormed(t, b.Bytes())
	// 4 positive bars + background + plot box + 2 legend swatches.
	if n["rect"] != 8 {
		t.Errorf("want 8 rects, got %v", n)
	}
	b.Reset()
	if err := (&BarChart{}).WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
}

func TestTicks(t *testing.T) {
	for _, c := range [][2]float64{{0, 1}, {0, 37}, {2, 20}, {-5, 5}, {0.001, 0.004}, {3, 3}} {
		ts := ticks(c[0], c[1])
		if len(ts) == 0 || len(ts) > 12 {
			t.Errorf("ticks(%v, %v) = %v", c[0], c[1], ts)
		}
		for _, x := range ts {
			if x < c[0]-1e-9 || x > c[1]+1e-9 {
				t.Errorf("ticks(%v, %v): %v outside", c[0], c[1], x)
			}
		}
	}
}

func ExampleLinePlot() {
	p := &LinePlot{
		Title:  "maximum iterations",
		XLabel: "vertices n",
		YLabel: "max k",
		Series: []Series{{Name: "ellipsoid", X: []float64{10, 100, 1000}, Y: []float64{6, 9, 12}}},
	}
	var b bytes.Buffer
	if err := p.WriteSVG(&b); err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(b.String(), "<svg"), strings.Count(b.String(), "<circle"))
	// Output: true 3
}
