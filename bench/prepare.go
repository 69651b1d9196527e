package bench

import (
	"fmt"

	"github.com/collide-go/collide/mesh"
)

// prepareMeshes runs prep, an algorithm's untimed per-mesh preprocessing,
// on every mesh of w and returns the results in mesh order; an error names
// the mesh.
func prepareMeshes[T any](w *Workload, prep func(*mesh.Mesh) (T, error)) ([]T, error) {
	out := make([]T, len(w.Meshes))
	for i, m := range w.Meshes {
		p, err := prep(m)
		if err != nil {
			return nil, fmt.Errorf("mesh %s: %w", w.MeshNames[i], err)
		}
		out[i] = p
	}
	return out, nil
}
