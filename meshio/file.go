package meshio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/collide-go/collide/mesh"
)

// Format is a mesh file format.
type Format int

// The supported formats.
const (
	Unknown Format = iota
	OBJ
	STL
	OFF
	PLY
)

var formatNames = [...]string{Unknown: "unknown", OBJ: "obj", STL: "stl", OFF: "off", PLY: "ply"}

// String returns "obj", "stl", "off" or "ply", and "unknown" for any other
// value.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "unknown"
}

// FormatOf returns the format named by a file name's extension (.obj,
// .stl, .off, .ply, any case), or Unknown.
func FormatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".obj":
		return OBJ
	case ".stl":
		return STL
	case ".off":
		return OFF
	case ".ply":
		return PLY
	}
	return Unknown
}

// nonMesh names the kind of a few common binary files that are not meshes
// (images, archives, documents, executables) from their first bytes, or
// returns "".
func nonMesh(head []byte) string {
	for _, k := range [...]struct{ magic, what string }{
		{"\x89PNG\r\n\x1a\n", "a PNG image"},
		{"\xff\xd8\xff", "a JPEG image"},
		{"GIF87a", "a GIF image"},
		{"GIF89a", "a GIF image"},
		{"%PDF-", "a PDF document"},
		{"PK\x03\x04", "a ZIP archive (also .3mf, .docx, ...)"},
		{"\x1f\x8b", "a gzip-compressed file (decompress it first)"},
		{"BZh", "a bzip2-compressed file (decompress it first)"},
		{"\xfd7zXZ\x00", "an xz-compressed file (decompress it first)"},
		{"\x28\xb5\x2f\xfd", "a zstd-compressed file (decompress it first)"},
		{"\x7fELF", "an ELF executable"},
		{"glTF", "a binary glTF (.glb) file, which meshio does not read"},
		{"Kaydara FBX Binary", "an FBX file, which meshio does not read"},
	} {
		if bytes.HasPrefix(head, []byte(k.magic)) {
			return k.what
		}
	}
	return ""
}

// Sniff guesses the format from the first bytes of a file (512 are plenty),
// or returns Unknown. It recognises the PLY and OFF headers, ASCII STL's
// "solid" and OBJ statements; a binary STL cannot be recognised from its
// start alone (size is the tell; see ReadSTLSoup), so data that is not
// text is reported as STL, unless its first bytes are the signature of a
// common non-mesh file (PNG, JPEG, GIF, PDF, ZIP, gzip ...): then Unknown.
func Sniff(head []byte) Format {
	if nonMesh(head) != "" {
		return Unknown
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if bytes.HasPrefix(t, []byte("ply")) && len(t) > 3 && (t[3] == '\n' || t[3] == '\r') {
		return PLY
	}
	if bytes.HasPrefix(t, []byte("solid")) {
		return STL
	}
	// Skip comment lines, then look at the first keyword.
	for len(t) > 0 {
		line := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			line, t = t[:i], t[i+1:]
		} else {
			t = nil
		}
		kw, _ := field(line)
		if len(kw) == 0 || kw[0] == '#' {
			continue
		}
		switch k := string(kw); {
		case strings.HasSuffix(k, "OFF") && len(k) <= 7:
			return OFF
		case k == "v" || k == "vt" || k == "vn" || k == "f" || k == "o" || k == "g" || k == "mtllib" || k == "usemtl" || k == "s":
			return OBJ
		}
		break
	}
	for _, c := range head {
		if c == 0 || c >= 0x80 {
			return STL
		}
	}
	return Unknown
}

// ReadSoup reads a polygon soup in the format named by name's extension,
// or, when the extension is not one of .obj, .stl, .off, .ply, in the
// format sniffed from the content.
func ReadSoup(r io.Reader, name string) (*Soup, error) {
	f := FormatOf(name)
	if f == Unknown {
		br := bufio.NewReaderSize(r, 4096)
		head, _ := br.Peek(512)
		if what := nonMesh(head); what != "" {
			return nil, fileErr(name, "is %s, not a mesh file (want OBJ, STL, OFF or PLY)", what)
		}
		if f = Sniff(head); f == Unknown {
			return nil, fileErr(name, "unknown mesh format (extension is not .obj, .stl, .off or .ply, and the content is not recognised)")
		}
		r = br
	}
	return formatIO[f].read(r, name)
}

// formatIO are each format's soup reader and mesh writer (PLY as binary
// little-endian, STL as binary).
var formatIO = [...]struct {
	read  func(io.Reader, string) (*Soup, error)
	write func(io.Writer, *mesh.Mesh) error
}{
	OBJ: {ReadOBJSoup, WriteOBJ},
	STL: {ReadSTLSoup, WriteSTL},
	OFF: {ReadOFFSoup, WriteOFF},
	PLY: {ReadPLYSoup, func(w io.Writer, m *mesh.Mesh) error { return WritePLY(w, m, PLYBinaryLE) }},
}

// Read reads a mesh (see ReadSoup) and builds it with the given options.
func Read(r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	return buildMesh(ReadSoup, r, name, opt)
}

// buildMesh reads a soup with read and builds its mesh with opt.
func buildMesh(read func(io.Reader, string) (*Soup, error), r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	s, err := read(r, name)
	if err != nil {
		return nil, err
	}
	return s.Mesh(opt)
}

// ReadSoupFile reads the polygon soup in the file at path (see ReadSoup).
func ReadSoupFile(path string) (*Soup, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fileErr(path, "is a directory, not a mesh file (give the path of an .obj, .stl, .off or .ply file in it)")
	}
	defer f.Close()
	return ReadSoup(f, path)
}

// ReadFile reads the mesh in the file at path, choosing the format by
// extension or content, and builds it with the given options (nil means
// the defaults). Errors name the path and the line or byte offset.
func ReadFile(path string, opt *mesh.Options) (*mesh.Mesh, error) {
	s, err := ReadSoupFile(path)
	if err != nil {
		return nil, err
	}
	return s.Mesh(opt)
}

// Write writes m to w in format f (PLY as binary little-endian, STL as
// binary).
func Write(w io.Writer, m *mesh.Mesh, f Format) error {
	if f <= Unknown || int(f) >= len(formatIO) {
		return fmt.Errorf("meshio: cannot write format %v", f)
	}
	return formatIO[f].write(w, m)
}

// WriteFile writes m to the file at path in the format named by its
// extension (see Write).
func WriteFile(path string, m *mesh.Mesh) error {
	f := FormatOf(path)
	if f == Unknown {
		return fmt.Errorf("meshio: %s: unknown extension, want .obj, .stl, .off or .ply", path)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(out, m, f); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
