// Package testutil holds helpers shared by collide's tests: loading the
// test meshes. It holds no oracle; tests check the library against their
// own.
package testutil

import (
	"testing"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
)

// ReadMesh reads a mesh file (any format meshio.ReadFile accepts) and stops
// the test when it cannot.
func ReadMesh(t testing.TB, path string) *mesh.Mesh {
	t.Helper()
	m, err := meshio.ReadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
