//go:build amd64 && !purego

#include "textflag.h"

// Kernels for posed polytopes of at most 16 vertices stored as a soa
// (16 x, 16 y, 16 z; see soa.go). They compute the same products and sums
// in the same order as the scalar Go code, without fused multiply-adds.

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() uint32
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET

// One coordinate of four transformed points: dst = ((ma x + mb y) + mc z) + t,
// with x, y, z in Y12, Y13, Y14; Y11 &= (|dst| < 1e300), |.| by clearing
// the sign with the mask in Y15, 1e300 in Y10 (NaN compares false).
#define ROW(ma, mb, mc, toff, dst) \
	VMULPD Y12, ma, Y9; \
	VMULPD Y13, mb, Y10; \
	VADDPD Y10, Y9, Y9; \
	VMULPD Y14, mc, Y10; \
	VADDPD Y10, Y9, Y9; \
	VBROADCASTSD toff(AX), Y10; \
	VADDPD Y10, Y9, Y9; \
	VMOVUPD Y9, (dst)(CX*1); \
	VANDPD Y15, Y9, Y9; \
	VBROADCASTSD big<>(SB), Y10; \
	VCMPPD $0x11, Y10, Y9, Y9; \
	VANDPD Y9, Y11, Y11

DATA big<>+0(SB)/8, $1e300
GLOBL big<>(SB), RODATA|NOPTR, $8
DATA absmask<>+0(SB)/8, $0x7fffffffffffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $8

// func poseVec(dst, src *soa, t *geom.Transform, nblk int) (ok bool)
// ok: every coordinate written is finite and below 1e300 in magnitude.
TEXT ·poseVec(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ t+16(FP), AX
	MOVQ nblk+24(FP), BX
	SHLQ $5, BX           // bytes per coordinate array
	LEAQ (SI)(BX*1), R9   // source y
	LEAQ (R9)(BX*1), R10  // source z
	LEAQ (DI)(BX*1), R11  // destination y
	LEAQ (R11)(BX*1), R12 // destination z
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	VBROADCASTSD 24(AX), Y3
	VBROADCASTSD 32(AX), Y4
	VBROADCASTSD 40(AX), Y5
	VBROADCASTSD 48(AX), Y6
	VBROADCASTSD 56(AX), Y7
	VBROADCASTSD 64(AX), Y8
	VBROADCASTSD absmask<>(SB), Y15
	VPCMPEQQ Y11, Y11, Y11 // all ones
	XORQ CX, CX

poseloop:
	VMOVUPD (SI)(CX*1), Y12
	VMOVUPD (R9)(CX*1), Y13
	VMOVUPD (R10)(CX*1), Y14
	ROW(Y0, Y1, Y2, 72, DI)
	ROW(Y3, Y4, Y5, 80, R11)
	ROW(Y6, Y7, Y8, 88, R12)
	ADDQ $32, CX
	CMPQ CX, BX
	JLT  poseloop
	VMOVMSKPD Y11, AX
	CMPQ AX, $15
	SETEQ ok+32(FP)
	VZEROUPPER
	RET

// dst = (dx x + dy y) + dz z for the four points at byte offset off of
// the x, y and z arrays at SI, R9 and R10 (d broadcast in Y0, Y1, Y2).
#define DOT4(off, dst) \
	VMULPD off(SI), Y0, dst; \
	VMULPD off(R9), Y1, Y15; \
	VADDPD Y15, dst, dst; \
	VMULPD off(R10), Y2, Y15; \
	VADDPD Y15, dst, dst

// The values of the CX (1 to 4) blocks of the soa at SI, of stride CX*32
// bytes, in Y3..Y6; missing blocks repeat block 0 (they change neither
// the extremum nor its first entry).
#define VALUES(done) \
	MOVQ    CX, BX; \
	SHLQ    $5, BX; \
	LEAQ    (SI)(BX*1), R9; \
	LEAQ    (R9)(BX*1), R10; \
	DOT4(0, Y3); \
	VMOVAPD Y3, Y4; \
	VMOVAPD Y3, Y5; \
	VMOVAPD Y3, Y6; \
	CMPQ    CX, $2; \
	JLT     done; \
	DOT4(32, Y4); \
	CMPQ    CX, $3; \
	JLT     done; \
	DOT4(64, Y5); \
	CMPQ    CX, $4; \
	JLT     done; \
	DOT4(96, Y6)

// AX = bit mask of the 16 values in Y3..Y6 equal to the value broadcast
// in Y7 (bit i for entry i).
#define EQMASK \
	VCMPPD    $0, Y7, Y3, Y8; \
	VMOVMSKPD Y8, AX; \
	VCMPPD    $0, Y7, Y4, Y8; \
	VMOVMSKPD Y8, BX; \
	SHLQ      $4, BX; \
	ORQ       BX, AX; \
	VCMPPD    $0, Y7, Y5, Y8; \
	VMOVMSKPD Y8, BX; \
	SHLQ      $8, BX; \
	ORQ       BX, AX; \
	VCMPPD    $0, Y7, Y6, Y8; \
	VMOVMSKPD Y8, BX; \
	SHLQ      $12, BX; \
	ORQ       BX, AX

// X7 = the minimum of the 16 values in Y3..Y6 (Y8 clobbered).
#define MINOF4 \
	VMINPD       Y4, Y3, Y7; \
	VMINPD       Y6, Y5, Y8; \
	VMINPD       Y8, Y7, Y7; \
	VEXTRACTF128 $1, Y7, X8; \
	VMINPD       X8, X7, X7; \
	VPERMILPD    $1, X7, X8; \
	VMINPD       X8, X7, X7

// func scan2Vec(a, b *soa, d *geom.Vec3, nblkA, nblkB int) (ia, ib int64, ha, hb float64)
// ia: first entry of a with the largest d.v (ha); ib: first entry of b
// with the smallest d.v (hb). An index is -1 when no value equals the
// extremum (NaN).
TEXT ·scan2Vec(SB), NOSPLIT, $0-72
	MOVQ d+16(FP), AX
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2

	// a: maximum and its first entry.
	MOVQ a+0(FP), SI
	MOVQ nblkA+24(FP), CX
	VALUES(avalues)

avalues:
	VMAXPD       Y4, Y3, Y7
	VMAXPD       Y6, Y5, Y8
	VMAXPD       Y8, Y7, Y7
	VEXTRACTF128 $1, Y7, X8
	VMAXPD       X8, X7, X7
	VPERMILPD    $1, X7, X8
	VMAXPD       X8, X7, X7
	VMOVSD       X7, ha+56(FP)
	VBROADCASTSD X7, Y7
	EQMASK
	MOVQ         $-1, DX
	BSFQ         AX, AX
	CMOVQEQ      DX, AX
	MOVQ         AX, ia+40(FP)

	// b: minimum and its first entry.
	MOVQ b+8(FP), SI
	MOVQ nblkB+32(FP), CX
	VALUES(bvalues)

bvalues:
	MINOF4
	VMOVSD       X7, hb+64(FP)
	VBROADCASTSD X7, Y7
	EQMASK
	MOVQ         $-1, DX
	BSFQ         AX, AX
	CMOVQEQ      DX, AX
	MOVQ         AX, ib+48(FP)
	VZEROUPPER
	RET

DATA iota<>+0(SB)/8, $0.0
DATA iota<>+8(SB)/8, $1.0
DATA iota<>+16(SB)/8, $2.0
DATA iota<>+24(SB)/8, $3.0
GLOBL iota<>(SB), RODATA|NOPTR, $32
DATA four<>+0(SB)/8, $4.0
GLOBL four<>(SB), RODATA|NOPTR, $8
DATA eight<>+0(SB)/8, $8.0
GLOBL eight<>(SB), RODATA|NOPTR, $8
DATA huge<>+0(SB)/8, $1e300
GLOBL huge<>(SB), RODATA|NOPTR, $8

// dst = (dx x + dy y) + dz z for the four points at byte offset off + AX
// of the x, y and z arrays at SI, DI, R8 (d broadcast in Y0, Y1, Y2).
#define DOTX(off, dst, tmp) \
	VMULPD off(SI)(AX*1), Y0, dst; \
	VMULPD off(DI)(AX*1), Y1, tmp; \
	VADDPD tmp, dst, dst; \
	VMULPD off(R8)(AX*1), Y2, tmp; \
	VADDPD tmp, dst, dst

// func scanMaxVec(xs *float64, nblk int, d *geom.Vec3) (idx int64, h float64)
// The first of the 4 nblk points (blocks of four points at xs, each the x,
// y and z of its points, 96 bytes; nblk even) maximising d.v, and the
// maximum. idx is -1 when no value equals the maximum (NaN).
TEXT ·scanMaxVec(SB), NOSPLIT, $0-40
	LEAQ xs+0(FP), R9
	LEAQ idx+24(FP), R10
	MOVQ $1, R11
	CALL scanlist<>(SB)
	RET

// func scanMax2Vec(xa *float64, na int, da *geom.Vec3, xb *float64, nb int, db *geom.Vec3) (ia int64, ha float64, ib int64, hb float64)
// scanMaxVec of two bodies in one call.
TEXT ·scanMax2Vec(SB), NOSPLIT, $0-80
	MOVQ $2, R11
	LEAQ xa+0(FP), R9
	LEAQ ia+48(FP), R10
	CALL scanlist<>(SB)
	RET

// scanlist runs scanblocks for R11 (at least 1) bodies: the arguments of
// each (blocks, block count, direction: 24 bytes) from R9 on, its results
// (index, maximum: 16 bytes) from R10 on.
TEXT scanlist<>(SB), NOSPLIT|NOFRAME, $0-0
scanlistloop:
	MOVQ  0(R9), SI
	MOVQ  8(R9), CX
	MOVQ  16(R9), AX
	CALL  scanblocks<>(SB)
	MOVQ  AX, 0(R10)
	MOVSD X7, 8(R10)
	ADDQ  $24, R9
	ADDQ  $16, R10
	DECQ  R11
	JNZ   scanlistloop
	RET

// scanblocks is scanMaxVec's scan: the nblk (CX, even) blocks of four
// points at SI along the direction at AX; the first index of the maximum
// in AX (-1: NaN), the maximum in X7. Two chains of running maxima (even
// and odd blocks of four points) keep the loop from waiting on one.
// Clobbers CX, DI, R8 and Y0-Y15; leaves the upper halves zeroed.
TEXT scanblocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	LEAQ 32(SI), DI
	LEAQ 64(SI), R8
	XORQ AX, AX
	SHRQ $1, CX
	DOTX(0, Y3, Y15)                 // running maxima, even blocks
	DOTX(96, Y10, Y9)                // odd blocks
	VMOVUPD      iota<>(SB), Y4      // their indices (the odd chain's less 4)
	VMOVUPD      Y4, Y11
	VMOVUPD      Y4, Y6              // indices of the current even block
	VBROADCASTSD eight<>(SB), Y5
	DECQ         CX
	JZ           merge

scanloop:
	ADDQ      $192, AX
	VADDPD    Y5, Y6, Y6
	DOTX(0, Y7, Y15)
	DOTX(96, Y13, Y9)
	VCMPPD    $0x1e, Y3, Y7, Y8   // Y7 > Y3
	VCMPPD    $0x1e, Y10, Y13, Y14
	VBLENDVPD Y8, Y7, Y3, Y3
	VBLENDVPD Y8, Y6, Y4, Y4
	VBLENDVPD Y14, Y13, Y10, Y10
	VBLENDVPD Y14, Y6, Y11, Y11
	DECQ      CX
	JNZ       scanloop

merge:
	VBROADCASTSD four<>(SB), Y5
	VADDPD       Y5, Y11, Y11
	// Per lane, the odd chain wins when larger, or equal with a smaller
	// index.
	VCMPPD    $0x1e, Y3, Y10, Y8  // Y10 > Y3
	VCMPPD    $0, Y3, Y10, Y13    // Y10 == Y3
	VCMPPD    $0x11, Y4, Y11, Y14 // Y11 < Y4
	VANDPD    Y14, Y13, Y13
	VORPD     Y13, Y8, Y8
	VBLENDVPD Y8, Y10, Y3, Y3
	VBLENDVPD Y8, Y11, Y4, Y4

	// The maximum over the lanes and its first index.
	// The maximum over the lanes, broadcast in Y7.
	VEXTRACTF128 $1, Y3, X7
	VMAXPD       X7, X3, X7
	VPERMILPD    $1, X7, X8
	VMAXPD       X8, X7, X7
	VBROADCASTSD X7, Y7
	// The smallest index among the lanes holding it.
	VCMPPD       $0, Y7, Y3, Y8
	VBROADCASTSD huge<>(SB), Y9
	VBLENDVPD    Y8, Y4, Y9, Y9
	VEXTRACTF128 $1, Y9, X10
	VMINPD       X10, X9, X9
	VPERMILPD    $1, X9, X10
	VMINPD       X10, X9, X9
	VZEROUPPER
	MOVQ         $-1, AX
	UCOMISD      huge<>(SB), X9
	JAE          done
	CVTTSD2SQ    X9, AX

done:
	RET


// func minDirsVec(s *soa, nblk int, dirs *float64, dstride, nd int, vals *float64, idx *int32)
// For each of the nd directions d (three float64 at dirs, the next
// dstride bytes further): the minimum of d.v over the nblk blocks of four
// points of s (vals, one float64 each) and its first entry (idx, one
// int32 each; -1 when no value equals the minimum: NaN).
TEXT ·minDirsVec(SB), NOSPLIT, $0-56
	MOVQ s+0(FP), SI
	MOVQ nblk+8(FP), R8
	MOVQ dirs+16(FP), DI
	MOVQ dstride+24(FP), R13
	MOVQ nd+32(FP), DX
	MOVQ vals+40(FP), R11
	MOVQ idx+48(FP), R12
	TESTQ DX, DX
	JLE   mindone

mindir:
	VBROADCASTSD 0(DI), Y0
	VBROADCASTSD 8(DI), Y1
	VBROADCASTSD 16(DI), Y2
	MOVQ R8, CX
	VALUES(minvalues)

minvalues:
	MINOF4
	VMOVSD       X7, (R11)
	VBROADCASTSD X7, Y7
	EQMASK
	MOVQ         $-1, R9
	BSFQ         AX, AX
	CMOVQEQ      R9, AX
	MOVL         AX, (R12)
	ADDQ         R13, DI
	ADDQ         $8, R11
	ADDQ         $4, R12
	DECQ         DX
	JNZ          mindir

mindone:
	VZEROUPPER
	RET

DATA posinf<>+0(SB)/8, $0x7ff0000000000000
GLOBL posinf<>(SB), RODATA|NOPTR, $8

// func minFirst(xs *float64, n int) (idx int64)
// The first of the n numbers at xs equal to their minimum, or -1 when the
// minimum is not below +Inf (no NaN among them).
TEXT ·minFirst(SB), NOSPLIT, $0-24
	MOVQ         xs+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD posinf<>(SB), Y0
	MOVQ         CX, DX
	ANDQ         $-4, DX            // entries in whole groups of four
	XORQ         AX, AX
	CMPQ         DX, $0
	JEQ          mintail

minchunk:
	VMINPD (SI)(AX*8), Y0, Y0
	ADDQ   $4, AX
	CMPQ   AX, DX
	JLT    minchunk

mintail:
	VEXTRACTF128 $1, Y0, X1
	VMINPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VMINSD       X1, X0, X0

mintailloop:
	CMPQ   AX, CX
	JGE    minfound
	VMINSD (SI)(AX*8), X0, X0
	INCQ   AX
	JMP    mintailloop

minfound:
	MOVQ         $-1, R8
	UCOMISD      posinf<>(SB), X0
	JAE          minret             // +Inf (or NaN): no entry
	VBROADCASTSD X0, Y0
	XORQ         AX, AX

findchunk:
	CMPQ      AX, DX
	JGE       findtail
	VCMPPD    $0, (SI)(AX*8), Y0, Y1
	VMOVMSKPD Y1, BX
	TESTQ     BX, BX
	JNZ       findhit
	ADDQ      $4, AX
	JMP       findchunk

findhit:
	BSFQ BX, BX
	ADDQ BX, AX
	MOVQ AX, R8
	JMP  minret

findtail:
	CMPQ    AX, CX
	JGE     minret
	UCOMISD (SI)(AX*8), X0
	JEQ     findone
	INCQ    AX
	JMP     findtail

findone:
	MOVQ AX, R8

minret:
	VZEROUPPER
	MOVQ R8, idx+16(FP)
	RET
