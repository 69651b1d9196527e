//go:build amd64 && !purego

#include "textflag.h"

DATA satinf<>+0(SB)/8, $0x7ff0000000000000
GLOBL satinf<>(SB), RODATA|NOPTR, $8

DATA satone<>+0(SB)/8, $1
GLOBL satone<>(SB), RODATA|NOPTR, $8

// func minFacesVec(groups *float64, ngroups int, pts *float64, stride, npts int, vals *float64, idx *int64)
// For each group of four face normals (four x, four y, four z) and each of
// the npts points of the soa at pts (x, y, z arrays stride entries apart):
// n.x = (nx*x + ny*y) + nz*z, and per face the smallest value (only a
// strictly smaller one replaces it: the first point attaining it) and its
// point; a face whose values are all NaN gets +Inf and -1.
TEXT ·minFacesVec(SB), NOSPLIT, $0-56
	MOVQ         groups+0(FP), SI
	MOVQ         ngroups+8(FP), DX
	MOVQ         pts+16(FP), DI
	MOVQ         stride+24(FP), R8
	SHLQ         $3, R8
	MOVQ         npts+32(FP), R9
	MOVQ         vals+40(FP), R11
	MOVQ         idx+48(FP), R12
	VBROADCASTSD satinf<>(SB), Y14
	VPBROADCASTQ satone<>(SB), Y15
	VPCMPEQQ     Y13, Y13, Y13

group:
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVAPD Y14, Y3
	VMOVDQA Y13, Y8
	VPXOR   Y9, Y9, Y9
	MOVQ    DI, BX
	MOVQ    R9, CX
	TESTQ   CX, CX
	JLE     store

point:
	VBROADCASTSD (BX), Y4
	VBROADCASTSD (BX)(R8*1), Y5
	VBROADCASTSD (BX)(R8*2), Y6
	VMULPD       Y0, Y4, Y4
	VMULPD       Y1, Y5, Y5
	VMULPD       Y2, Y6, Y6
	VADDPD       Y5, Y4, Y4
	VADDPD       Y6, Y4, Y4
	VCMPPD       $0x11, Y3, Y4, Y7
	VBLENDVPD    Y7, Y4, Y3, Y3
	VBLENDVPD    Y7, Y9, Y8, Y8
	VPADDQ       Y15, Y9, Y9
	ADDQ         $8, BX
	DECQ         CX
	JNZ          point

store:
	VMOVUPD Y3, (R11)
	VMOVDQU Y8, (R12)
	ADDQ    $96, SI
	ADDQ    $32, R11
	ADDQ    $32, R12
	DECQ    DX
	JNZ     group
	VZEROUPPER
	RET
