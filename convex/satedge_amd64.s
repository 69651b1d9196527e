//go:build amd64 && !purego

#include "textflag.h"

// func faceUnionVec(fe *uint64, gs, gds *float64, n int, U float64) (c, d uint64)
// faceUnionGo with SSE2 for an even n >= 2: two faces per step, the masks
// of !(g > U) and !(gd > U) (CMPPD not-less-than with U first: true for
// NaN) ANDed with the faces' edge words and ORed into c and d.
TEXT ·faceUnionVec(SB), NOSPLIT, $0-56
	MOVSD    U+32(FP), X0
	MOVQ     fe+0(FP), SI
	UNPCKLPD X0, X0
	MOVQ     gs+8(FP), DI
	PXOR     X1, X1
	MOVQ     gds+16(FP), R8
	PXOR     X2, X2
	MOVQ     n+24(FP), CX
	XORQ     BX, BX

pairs:
	MOVUPD (DI)(BX*8), X3
	MOVAPD X0, X4
	CMPPD  X3, X4, 5
	MOVUPD (R8)(BX*8), X5
	MOVAPD X0, X6
	CMPPD  X5, X6, 5
	MOVOU  (SI)(BX*8), X7
	PAND   X7, X4
	PAND   X7, X6
	POR    X4, X1
	POR    X6, X2
	ADDQ   $2, BX
	CMPQ   BX, CX
	JLT    pairs
	PSHUFD $0xee, X1, X3
	POR    X3, X1
	MOVQ   X1, c+40(FP)
	PSHUFD $0xee, X2, X3
	POR    X3, X2
	MOVQ   X2, d+48(FP)
	RET

// func faceBoundsVec(groups *float64, ngroups int, pts *float64, lo, lod *float64)
// faceBoundsGo with AVX for ngroups >= 1 groups of newFaceGroups (the
// planes' offsets after the groups): for each face, D - n.c into lo and
// D - n.y into lod (c, y the six numbers at pts), n.c = (nx*cx + ny*cy) +
// nz*cz as geom.Vec3.Dot; four faces per step, all 4*ngroups written.
TEXT ·faceBoundsVec(SB), NOSPLIT, $0-40
	MOVQ         pts+16(FP), DI
	VBROADCASTSD 0(DI), Y10
	MOVQ         groups+0(FP), SI
	VBROADCASTSD 8(DI), Y11
	MOVQ         ngroups+8(FP), DX
	VBROADCASTSD 16(DI), Y12
	MOVQ         lo+24(FP), R11
	VBROADCASTSD 24(DI), Y13
	MOVQ         lod+32(FP), R12
	VBROADCASTSD 32(DI), Y14
	IMUL3Q       $96, DX, AX
	VBROADCASTSD 40(DI), Y15
	LEAQ         (SI)(AX*1), R8

bgroup:
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD (R8), Y3
	VMULPD  Y10, Y0, Y4
	VMULPD  Y11, Y1, Y5
	VMULPD  Y12, Y2, Y6
	VADDPD  Y5, Y4, Y4
	VADDPD  Y6, Y4, Y4
	VSUBPD  Y4, Y3, Y4
	VMOVUPD Y4, (R11)
	VMULPD  Y13, Y0, Y4
	VMULPD  Y14, Y1, Y5
	VMULPD  Y15, Y2, Y6
	VADDPD  Y5, Y4, Y4
	VADDPD  Y6, Y4, Y4
	VSUBPD  Y4, Y3, Y4
	VMOVUPD Y4, (R12)
	ADDQ    $96, SI
	ADDQ    $32, R8
	ADDQ    $32, R11
	ADDQ    $32, R12
	DECQ    DX
	JNZ     bgroup
	VZEROUPPER
	RET
