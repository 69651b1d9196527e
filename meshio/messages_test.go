package meshio

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessages checks the messages of inputs that are not what the reader
// expects: each must say what is wrong and point at the right place.
func TestMessages(t *testing.T) {
	dir := t.TempDir()
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 64, 64))); err != nil {
		t.Fatal(err)
	}
	// Junk that is no known file type, with a huge triangle count at
	// bytes 80..84.
	junk := bytes.Repeat([]byte{0xAB}, 300)
	files := map[string][]byte{
		"image.stl":  pngBuf.Bytes(),
		"image.png":  pngBuf.Bytes(),
		"image":      pngBuf.Bytes(),
		"junk.stl":   junk,
		"far.obj":    []byte("v -1e308 -1e308 -1e308\nv 1e308 1e308 -1e308\nv 1e308 -1e308 1e308\nv -1e308 1e308 1e308\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"),
		"far.off":    []byte("OFF\n3 1 0\n0 0 0\n2e15 0 0\n0 1 0\n3 0 1 2\n"),
		"points.ply": []byte("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n"),
		"points.obj": []byte("v 0 0 0\nv 1 0 0\nl 1 2\n"),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		path string
		want []string
		not  string
	}{
		{dir, []string{dir + ": is a directory, not a mesh file"}, "unknown mesh format"},
		{filepath.Join(dir, "image.stl"), []string{"image.stl: byte 0: not an STL file", "PNG image"}, "truncated"},
		{filepath.Join(dir, "image.png"), []string{"image.png: is a PNG image, not a mesh file"}, "triangles"},
		{filepath.Join(dir, "image"), []string{"image: is a PNG image, not a mesh file"}, "triangles"},
		{filepath.Join(dir, "junk.stl"), []string{"junk.stl: byte 284:", "truncated, or not an STL file", "room for 4 triangles"}, ""},
		{filepath.Join(dir, "far.obj"), []string{"far.obj:1:", "out of range", "MaxCoord"}, "zero area"},
		{filepath.Join(dir, "far.off"), []string{"far.off:4:", "vertex 1", "out of range", "MaxCoord"}, ""},
		{filepath.Join(dir, "points.ply"), []string{"points.ply: no faces (3 vertices)", "no face or tristrips element"}, ""},
		{filepath.Join(dir, "points.obj"), []string{"points.obj: no faces (2 vertices)", "no f statements"}, ""},
		// A 13-line file whose face list count is huge: line 13, not 14.
		{"testdata/huge_list.ply", []string{"huge_list.ply:13:", "face 0", "longer than the 3 vertices"}, ":14:"},
		// A huge list that is not the face's index list: read until the
		// end of the file, reported at the line where the vertex began.
		{"testdata/huge_extra_list.ply", []string{"huge_extra_list.ply:13:", "vertex 2 of 3", "end of file"}, ":14:"},
	}
	for _, c := range cases {
		_, err := ReadFile(c.path, nil)
		if err == nil {
			t.Errorf("%s: accepted", c.path)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.path, err, w)
			}
		}
		if c.not != "" && strings.Contains(err.Error(), c.not) {
			t.Errorf("%s: error %q contains %q", c.path, err, c.not)
		}
	}
	// Sniff does not take a PNG for a binary STL.
	if f := Sniff(pngBuf.Bytes()); f != Unknown {
		t.Errorf("Sniff(PNG) = %v, want unknown", f)
	}
}
