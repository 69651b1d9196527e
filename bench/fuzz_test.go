package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzLoad feeds arbitrary workload.json and CSV contents to Load: it
// must return a workload or an error, never panic or hang.
func FuzzLoad(f *testing.F) {
	for _, d := range []string{"screwpairs-cube-q200-s4", "polytopes-mixed-n10-b50-f40-s1"} {
		src := filepath.Join(samples, d)
		wj, _ := os.ReadFile(filepath.Join(src, "workload.json"))
		csv := "queries.csv"
		if d[0] == 'p' {
			csv = "poses.csv"
		}
		data, _ := os.ReadFile(filepath.Join(src, csv))
		if len(data) > 4000 {
			data = data[:4000]
		}
		f.Add(wj, data)
	}
	f.Add([]byte(`{"format":"bench-workload/1","kind":"frames","meshes":[{"name":"c","file":"c.obj"}],"bodies":[{"id":0,"mesh":"c"}],"frames":1}`),
		[]byte("frame,body,px,py,pz,qw,qx,qy,qz\n0,0,0,0,0,1,0,0,0\n"))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"motions","meshes":[{"name":"c","file":"c.obj"}],"num_queries":1}`),
		[]byte("id,meshA,meshB,a0_px\n0,c,c,NaN\n"))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"placements","meshes":[{"name":"c","file":"c.obj"}],"num_queries":1}`),
		[]byte("id,meshA,meshB,a_px,a_py,a_pz,a_qw,a_qx,a_qy,a_qz,b_px,b_py,b_pz,b_qw,b_qx,b_qy,b_qz\n0,c,c,0,0,0,1,0,0,0,1,0,0,1,0,0,0\n"))
	cube, err := os.ReadFile(filepath.Join(samples, "screwpairs-cube-q200-s4", "meshes", "cube.obj"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, wj, csv []byte) {
		dir := t.TempDir()
		for _, name := range []string{"c.obj", "cube.obj", "meshes/cube.obj"} {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			os.WriteFile(filepath.Join(dir, name), cube, 0o644)
		}
		os.WriteFile(filepath.Join(dir, "workload.json"), wj, 0o644)
		os.WriteFile(filepath.Join(dir, "queries.csv"), csv, 0o644)
		os.WriteFile(filepath.Join(dir, "poses.csv"), csv, 0o644)
		os.WriteFile(filepath.Join(dir, "placements.csv"), csv, 0o644)
		type res struct {
			w   *Workload
			err error
		}
		done := make(chan res, 1)
		go func() { w, err := Load(dir); done <- res{w, err} }()
		var r res
		select {
		case r = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Load hangs on workload.json %q", wj)
		}
		w, err := r.w, r.err
		if err != nil {
			return
		}
		switch w.Kind {
		case "frames":
			if len(w.Poses) != w.Frames {
				t.Fatalf("loaded %d frames of poses, want %d", len(w.Poses), w.Frames)
			}
		case "motions":
			for _, q := range w.Queries {
				if q.MeshA >= len(w.Meshes) || q.MeshB >= len(w.Meshes) {
					t.Fatalf("query %d refers to mesh %d/%d of %d", q.ID, q.MeshA, q.MeshB, len(w.Meshes))
				}
			}
		case "placements":
			for _, p := range w.Placements {
				if p.MeshA >= len(w.Meshes) || p.MeshB >= len(w.Meshes) {
					t.Fatalf("placement %d refers to mesh %d/%d of %d", p.ID, p.MeshA, p.MeshB, len(w.Meshes))
				}
			}
		default:
			t.Fatalf("loaded kind %q", w.Kind)
		}
	})
}
