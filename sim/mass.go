package sim

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Centered returns a copy of m moved so that the point c (its centre of
// mass, from mesh.MassProperties) is at the origin, as BodyDef requires.
func Centered(m *mesh.Mesh, c geom.Vec3) (*mesh.Mesh, error) {
	verts := make([]geom.Vec3, len(m.Verts))
	for i, v := range m.Verts {
		verts[i] = v.Sub(c)
	}
	faces := make([][]int, m.NumFaces())
	for f := range faces {
		for _, v := range m.Face(f) {
			faces[f] = append(faces[f], int(v))
		}
	}
	out, err := mesh.New(verts, faces, nil)
	if err != nil {
		return nil, fmt.Errorf("sim: centring mesh: %w", err)
	}
	return out, nil
}
