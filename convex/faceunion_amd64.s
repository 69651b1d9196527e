//go:build amd64 && !purego

#include "textflag.h"

// func faceUnionVec(fe *uint64, gs, gds *float64, n int, U float64) (c, d uint64)
// faceUnionGo with SSE2 for n >= 1: two faces per step, the masks of
// !(g > U) and !(gd > U) (CMPPD not-less-than with U first: true for NaN)
// ANDed with the faces' edge words and ORed into c and d.
TEXT ·faceUnionVec(SB), NOSPLIT, $0-56
	MOVQ     fe+0(FP), SI
	MOVQ     gs+8(FP), DI
	MOVQ     gds+16(FP), R8
	MOVQ     n+24(FP), CX
	MOVSD    U+32(FP), X0
	UNPCKLPD X0, X0
	PXOR     X1, X1
	PXOR     X2, X2
	XORQ     BX, BX
	SUBQ     $2, CX
	JLT      tail

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
	JLE    pairs

tail:
	ADDQ  $2, CX
	CMPQ  BX, CX
	JGE   done
	MOVSD (DI)(BX*8), X3
	MOVAPD X0, X4
	CMPSD X3, X4, 5
	MOVSD (R8)(BX*8), X5
	MOVAPD X0, X6
	CMPSD X5, X6, 5
	MOVQ  (SI)(BX*8), X7
	PAND  X7, X4
	PAND  X7, X6
	POR   X4, X1
	POR   X6, X2

done:
	PSHUFD $0xee, X1, X3
	POR    X3, X1
	MOVQ   X1, c+40(FP)
	PSHUFD $0xee, X2, X3
	POR    X3, X2
	MOVQ   X2, d+48(FP)
	RET
