//go:build amd64 && !purego

#include "textflag.h"

// The expanding polytope's new faces, four at a time (see epa_amd64.go).
// Layouts: epaVert 32 bytes (w at 0), rimEdge 16 bytes (a at 4, b at 8),
// epaFace 72 bytes (n at 32, d at 56).

// Lane j (register jr) of the a (off 4) or b (off 8) vertices: its x, y,
// z into the low (MOVSD) or high (MOVHPD) halves of X(x), X(y), X(z).
#define LOADLO(jr, off, x, y, z) \
	MOVQ  jr, R13; \
	SHLQ  $4, R13; \
	MOVLQSX off(DI)(R13*1), R13; \
	SHLQ  $5, R13; \
	VMOVSD 0(SI)(R13*1), x; \
	VMOVSD 8(SI)(R13*1), y; \
	VMOVSD 16(SI)(R13*1), z

#define LOADHI(jr, off, x, y, z) \
	MOVQ  jr, R13; \
	SHLQ  $4, R13; \
	MOVLQSX off(DI)(R13*1), R13; \
	SHLQ  $5, R13; \
	VMOVHPD 0(SI)(R13*1), x, x; \
	VMOVHPD 8(SI)(R13*1), y, y; \
	VMOVHPD 16(SI)(R13*1), z, z

// The four lanes' points (a: off 4, b: off 8) into Y(x), Y(y), Y(z), with
// X9-X11 as scratch for the upper lanes.
#define GATHER(off, x, y, z, X, Y, Z) \
	LOADLO(AX, off, x, y, z); \
	LOADHI(R10, off, x, y, z); \
	LOADLO(R11, off, X9, X10, X11); \
	LOADHI(R12, off, X9, X10, X11); \
	VINSERTF128 $1, X9, X, X; \
	VINSERTF128 $1, X10, Y, Y; \
	VINSERTF128 $1, X11, Z, Z

// Lane results of face jr: normal X0-X2, d X3, their low halves (op
// VMOVSD) or high halves (op VMOVHPD).
#define STORE(op, jr) \
	IMUL3Q $72, jr, R13; \
	op X0, 32(R8)(R13*1); \
	op X1, 40(R8)(R13*1); \
	op X2, 48(R8)(R13*1); \
	op X3, 56(R8)(R13*1); \
	op X3, (R9)(jr*8)

// func facePlanesVec(verts *epaVert, rim *rimEdge, n int, w *geom.Vec3, faces *epaFace, dist *float64)
// For j < n (at least 1): the plane of face (a, b, w) of rim[j] (a, b the
// vertices verts[rim[j].a].w and verts[rim[j].b].w), as facePlane computes
// it, the same operations in the same order: faces[j].n, faces[j].d and
// dist[j] = faces[j].d. The lanes past n repeat face n-1.
TEXT ·facePlanesVec(SB), NOSPLIT, $0-48
	MOVQ w+24(FP), AX
	VBROADCASTSD 0(AX), Y13
	VBROADCASTSD 8(AX), Y14
	VBROADCASTSD 16(AX), Y15
	MOVQ verts+0(FP), SI
	MOVQ rim+8(FP), DI
	MOVQ n+16(FP), DX
	MOVQ faces+32(FP), R8
	MOVQ dist+40(FP), R9
	DECQ DX               // the last face
	XORQ CX, CX           // the group's first face

group:
	// Lane faces j = min(CX + l, DX).
	MOVQ    CX, AX
	LEAQ    1(CX), R10
	CMPQ    R10, DX
	CMOVQGT DX, R10
	LEAQ    2(CX), R11
	CMPQ    R11, DX
	CMOVQGT DX, R11
	LEAQ    3(CX), R12
	CMPQ    R12, DX
	CMOVQGT DX, R12

	GATHER(4, X0, X1, X2, Y0, Y1, Y2) // a
	GATHER(8, X6, X7, X8, Y6, Y7, Y8) // b

	// s = (a + b) + w
	VADDPD Y6, Y0, Y3
	VADDPD Y13, Y3, Y3
	VADDPD Y7, Y1, Y4
	VADDPD Y14, Y4, Y4
	VADDPD Y8, Y2, Y5
	VADDPD Y15, Y5, Y5
	// u = b - a (Y6-Y8), v = w - a (Y0-Y2)
	VSUBPD Y0, Y6, Y6
	VSUBPD Y1, Y7, Y7
	VSUBPD Y2, Y8, Y8
	VSUBPD Y0, Y13, Y0
	VSUBPD Y1, Y14, Y1
	VSUBPD Y2, Y15, Y2
	// n = u x v: (uy vz - uz vy, uz vx - ux vz, ux vy - uy vx) in Y9-Y11
	VMULPD Y7, Y2, Y9
	VMULPD Y8, Y1, Y12
	VSUBPD Y12, Y9, Y9
	VMULPD Y8, Y0, Y10
	VMULPD Y6, Y2, Y12
	VSUBPD Y12, Y10, Y10
	VMULPD Y6, Y1, Y11
	VMULPD Y7, Y0, Y12
	VSUBPD Y12, Y11, Y11
	// q = (nx sx + ny sy) + nz sz in Y3
	VMULPD Y9, Y3, Y3
	VMULPD Y10, Y4, Y4
	VADDPD Y4, Y3, Y3
	VMULPD Y11, Y5, Y5
	VADDPD Y5, Y3, Y3
	// nn = (nx nx + ny ny) + nz nz in Y4
	VMULPD Y9, Y9, Y4
	VMULPD Y10, Y10, Y5
	VADDPD Y5, Y4, Y4
	VMULPD Y11, Y11, Y5
	VADDPD Y5, Y4, Y4
	// valid: 0 < nn < +Inf (false for NaN), in Y5
	VBROADCASTSD inf<>(SB), Y6
	VXORPD       Y7, Y7, Y7
	VCMPPD       $0x1e, Y7, Y4, Y5 // nn > 0
	VCMPPD       $0x11, Y6, Y4, Y8 // nn < +Inf
	VANDPD       Y8, Y5, Y5
	// inv = 1 / sqrt(nn); normal = inv n; d = (q inv) / 3 as (q inv) * (1/3)
	VSQRTPD      Y4, Y4
	VBROADCASTSD one<>(SB), Y8
	VDIVPD       Y4, Y8, Y4
	VMULPD       Y9, Y4, Y0
	VMULPD       Y10, Y4, Y1
	VMULPD       Y11, Y4, Y2
	VMULPD       Y4, Y3, Y3
	VBROADCASTSD third<>(SB), Y8
	VMULPD       Y8, Y3, Y3
	// Degenerate lanes: zero normal, d = +Inf.
	VBLENDVPD Y5, Y0, Y7, Y0
	VBLENDVPD Y5, Y1, Y7, Y1
	VBLENDVPD Y5, Y2, Y7, Y2
	VBLENDVPD Y5, Y3, Y6, Y3

	STORE(VMOVSD, AX)
	STORE(VMOVHPD, R10)
	VEXTRACTF128 $1, Y0, X0
	VEXTRACTF128 $1, Y1, X1
	VEXTRACTF128 $1, Y2, X2
	VEXTRACTF128 $1, Y3, X3
	STORE(VMOVSD, R11)
	STORE(VMOVHPD, R12)

	ADDQ $4, CX
	CMPQ CX, DX
	JLE  group
	VZEROUPPER
	RET

DATA one<>+0(SB)/8, $1.0
GLOBL one<>(SB), RODATA|NOPTR, $8
DATA third<>+0(SB)/8, $0x3fd5555555555555 // 1.0 / 3, as Go rounds it
GLOBL third<>(SB), RODATA|NOPTR, $8
DATA inf<>+0(SB)/8, $0x7ff0000000000000
GLOBL inf<>(SB), RODATA|NOPTR, $8
