package bench

import (
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/collide-go/collide/mesh"
)

// FuzzLoad feeds arbitrary workload.json and CSV contents to the loader
// (Load's code on an in-memory directory): it must return a workload or an
// error, never panic or hang.
func FuzzLoad(f *testing.F) {
	// Small seeds (a header and a row or two) keep the minimisation of
	// new inputs short.
	cubeJSON := `{"format":"bench-workload/1","kind":"motions","meshes":[{"name":"c","file":"meshes/cube.obj"}],"num_queries":1}`
	q := "id,meshA,meshB,a0_px,a0_py,a0_pz,a0_qw,a0_qx,a0_qy,a0_qz,a1_px,a1_py,a1_pz,a1_qw,a1_qx,a1_qy,a1_qz," +
		"b0_px,b0_py,b0_pz,b0_qw,b0_qx,b0_qy,b0_qz,b1_px,b1_py,b1_pz,b1_qw,b1_qx,b1_qy,b1_qz\n" +
		"0,c,c,0,0,0,1,0,0,0,0,0,0,1,0,0,0,3,0,0,1,0,0,0,0,0,0,1,0,0,0\n"
	f.Add([]byte(cubeJSON), []byte(q))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"frames","meshes":[{"name":"c","file":"c.obj"}],"bodies":[{"id":0,"mesh":"c"},{"id":1,"mesh":"c"}],"frames":1}`),
		[]byte("frame,body,px,py,pz,qw,qx,qy,qz\n0,0,0,0,0,1,0,0,0\n0,1,0.5,0,0,1,0,0,0\n"))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"motions","meshes":[{"name":"c","file":"c.obj"}],"num_queries":1}`),
		[]byte("id,meshA,meshB,a0_px\n0,c,c,NaN\n"))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"frames","meshes":[{"name":"c","file":"../c.obj"}],"frames":1}`), []byte("frame\n"))
	f.Add([]byte(`{"format":"bench-workload/1","kind":"placements","meshes":[{"name":"c","file":"c.obj"}],"num_queries":1}`),
		[]byte("id,meshA,meshB,a_px,a_py,a_pz,a_qw,a_qx,a_qy,a_qz,b_px,b_py,b_pz,b_qw,b_qx,b_qy,b_qz\n0,c,c,0,0,0,1,0,0,0,1,0,0,1,0,0,0\n"))
	cube, err := MeshLoader(filepath.Join(samples, "screwpairs-cube-q200-s4", "meshes", "cube.obj"))
	if err != nil {
		f.Fatal(err)
	}
	// The files live in memory and the meshes are read once: an input
	// costs its own parsing only. The mesh names the seeds use load the
	// cube; any other name is a missing file.
	meshes := map[string]bool{"c.obj": true, "cube.obj": true, "meshes/cube.obj": true}
	loadMesh := func(name string) (*mesh.Mesh, error) {
		if !meshes[name] {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return cube, nil
	}
	timer := time.NewTimer(time.Hour)
	f.Fuzz(func(t *testing.T, wj, csv []byte) {
		fsys := fstest.MapFS{
			"workload.json": {Data: wj}, "queries.csv": {Data: csv}, "poses.csv": {Data: csv}, "placements.csv": {Data: csv},
			"c.obj": {}, "cube.obj": {}, "meshes/cube.obj": {},
		}
		type res struct {
			w   *Workload
			err error
		}
		done := make(chan res, 1)
		go func() { w, err := load(fsys, "fuzz", loadMesh); done <- res{w, err} }()
		timer.Reset(5 * time.Second)
		var r res
		select {
		case r = <-done:
			timer.Stop()
		case <-timer.C:
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
