package view

import (
	"bytes"
	"embed"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
)

// ThreeVersion is the three.js release embedded in the page (npm package
// three, files build/three.core.js, build/three.module.js and
// examples/jsm/controls/OrbitControls.js; licence in assets/three-LICENSE).
const ThreeVersion = "0.187.0"

//go:embed assets/index.html assets/app.js assets/three.core.js assets/three.module.js assets/OrbitControls.js assets/three-LICENSE
var assets embed.FS

// chunkBytes is the size of the pieces of frame data (before base64) in a
// self-contained file.
const chunkBytes = 3 << 20

// modules are the page's JavaScript files, by the name the page fetches them
// under when served and the id of the script element that holds them in a
// self-contained file.
var modules = []struct{ file, id string }{
	{"three.core.js", "src-three-core"},
	{"three.module.js", "src-three"},
	{"OrbitControls.js", "src-orbit"},
	{"app.js", "src-app"},
}

func asset(name string) []byte {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic("view: embedded asset missing: " + name) // cannot happen: go:embed lists it
	}
	return b
}

// page returns index.html with the placeholder for inline content replaced
// by inline.
func page(title, inline string) []byte {
	p := string(asset("index.html"))
	p = strings.ReplaceAll(p, "{{TITLE}}", html.EscapeString(title))
	p = strings.Replace(p, "<!--INLINE-->", inline, 1)
	return []byte(p)
}

// WriteHTML writes the viewer of s as one self-contained HTML file: three.js,
// the page's code and the frame data (base64) are inline, so the file opens
// from disk with no server and no network.
func WriteHTML(w io.Writer, s *Scene) error {
	data, err := s.Encode()
	if err != nil {
		return err
	}
	var in bytes.Buffer
	for _, m := range modules {
		src := asset(m.file)
		if bytes.Contains(bytes.ToLower(src), []byte("</script")) {
			return fmt.Errorf("view: embedded %s contains </script and cannot be inlined", m.file)
		}
		fmt.Fprintf(&in, "<script type=\"text/plain\" id=%q>", m.id)
		in.Write(src)
		in.WriteString("</script>\n")
	}
	// The data goes in chunks, so the page decodes it piece by piece
	// without one long blocking step and can show its progress.
	fmt.Fprintf(&in, "<script type=\"application/json\" id=\"viewer-data\">{\"bytes\": %d, \"chunks\": %d}</script>\n",
		len(data), (len(data)+chunkBytes-1)/chunkBytes)
	for off := 0; off < len(data); off += chunkBytes {
		in.WriteString("<script type=\"application/octet-stream\" class=\"viewer-chunk\">")
		in.WriteString(base64.StdEncoding.EncodeToString(data[off:min(off+chunkBytes, len(data))]))
		in.WriteString("</script>\n")
	}
	_, err = w.Write(page(s.Title, in.String()))
	return err
}

// Handler serves the viewer of s: the page at "/", its scripts beside it, the
// frame data at "/data.bin" and three.js's licence at "/three-LICENSE". The
// data is encoded once, here.
func Handler(s *Scene) (http.Handler, error) {
	data, err := s.Encode()
	if err != nil {
		return nil, err
	}
	index := page(s.Title, "")
	mux := http.NewServeMux()
	serve := func(path, ctype string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Cache-Control", "no-store")
			w.Write(body)
		})
	}
	serve("/{$}", "text/html; charset=utf-8", index)
	for _, m := range modules {
		serve("/"+m.file, "text/javascript; charset=utf-8", asset(m.file))
	}
	serve("/three-LICENSE", "text/plain; charset=utf-8", asset("three-LICENSE"))
	serve("/data.bin", "application/octet-stream", data)
	return mux, nil
}
