package cable

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

func TestPictures(t *testing.T) {
	s := barScene(t, Options{}, -1)
	for i := 0; i < 50; i++ {
		s.Step()
	}
	var b bytes.Buffer
	if err := s.WriteSVG(&b, View{Title: "a <cable> & bar"}); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	// One polyline per cable, one line per static edge.
	if n := strings.Count(svg, "<polyline"); n != 1 {
		t.Errorf("%d cable polylines, want 1", n)
	}
	if !strings.Contains(svg, "a &lt;cable&gt; &amp; bar") || !strings.HasSuffix(svg, "</svg>\n") {
		t.Errorf("svg title or end wrong")
	}
	b.Reset()
	if err := s.WritePNG(&b, View{MinX: -1, MaxX: 1, MinZ: 0, MaxZ: 2.5, Width: 200}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil || img.Bounds().Dx() != 200 || img.Bounds().Dy() != 250 {
		t.Fatalf("png: %v %v", err, img.Bounds())
	}
	for _, v := range []View{{MinX: 1, MaxX: 0, MinZ: 0, MaxZ: 1}, {MinX: 0, MaxX: 1, MinZ: 0, MaxZ: 1, Width: -5}} {
		if s.WriteSVG(&b, v) == nil || s.WritePNG(&b, v) == nil {
			t.Errorf("bad view %+v accepted", v)
		}
	}
}
