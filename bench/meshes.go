package bench

import (
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
)

func init() {
	MeshLoader = func(path string) (*mesh.Mesh, error) { return meshio.ReadFile(path, nil) }
}
