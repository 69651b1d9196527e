//go:build amd64 && !purego

package convex

import (
	"unsafe"

	"github.com/collide-go/collide/geom"
)

// facePlanesVec computes the planes of the n (at least 1) new faces of an
// expansion, four at a time with AVX: face j is (a, b, w) for rim[j] (a,
// b: verts[rim[j].a].w, verts[rim[j].b].w), and its normal and offset
// go to faces[j].n, faces[j].d and dist[j], with facePlane's products,
// sums, square root and divisions in the same order (the same values bit
// for bit). The memory layouts it reads and writes are checked below.
//
//go:noescape
func facePlanesVec(verts *epaVert, rim *rimEdge, n int, w *geom.Vec3, faces *epaFace, dist *float64)

// The layouts facePlanesVec assumes (a compile error when they change).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(epaVert{})-32]
	_ = [1]struct{}{}[unsafe.Sizeof(rimEdge{})-16]
	_ = [1]struct{}{}[unsafe.Offsetof(rimEdge{}.a)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(rimEdge{}.b)-8]
	_ = [1]struct{}{}[unsafe.Sizeof(epaFace{})-72]
	_ = [1]struct{}{}[unsafe.Offsetof(epaFace{}.n)-32]
	_ = [1]struct{}{}[unsafe.Offsetof(epaFace{}.d)-56]
)
