//go:build !purego

#include "textflag.h"

// The bytes the blocks are compared with, each broadcast from memory in
// one instruction: most calls read one block (a disallow line's value),
// where building them in registers cost a third of the call.
DATA plainBytes<>+0(SB)/1, $0x20
DATA plainBytes<>+1(SB)/1, $0x7F
DATA plainBytes<>+2(SB)/1, $0x23
DATA plainBytes<>+3(SB)/1, $0x02
DATA plainBytes<>+4(SB)/1, $0x2A
GLOBL plainBytes<>(SB), RODATA|NOPTR, $8

// func plainBlocks(p *byte, n int) int
//
// See plainPrefix (scoped.go): the plain pattern bytes are 0x21 to 0x7E
// but "#$%*". This returns the index of the first byte of p[:n] that is
// not one, within whole blocks of 32 bytes, or the bytes of the whole
// blocks (n rounded down to 32) when all are.
TEXT ·plainBlocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DI

	VPBROADCASTB plainBytes<>+0(SB), Y10 // 0x20
	VPBROADCASTB plainBytes<>+1(SB), Y11 // 0x7F
	VPBROADCASTB plainBytes<>+2(SB), Y12 // '#', the first of "#$%"
	VPBROADCASTB plainBytes<>+3(SB), Y13 // 2
	VPBROADCASTB plainBytes<>+4(SB), Y14 // '*'

	XORQ BX, BX

loop:
	LEAQ 32(BX), DX
	CMPQ DX, DI
	JGT  done

	VMOVDQU   (SI)(BX*1), Y0
	VPCMPGTB  Y10, Y0, Y1 // above 0x20, as signed bytes: not >= 0x80 either
	VPCMPGTB  Y0, Y11, Y2 // below 0x7F, as signed bytes
	VPAND     Y1, Y2, Y1  // 0x21 to 0x7E
	VPSUBB    Y12, Y0, Y3
	VPMINUB   Y13, Y3, Y4
	VPCMPEQB  Y3, Y4, Y4  // "#$%"
	VPCMPEQB  Y14, Y0, Y5 // '*'
	VPOR      Y4, Y5, Y4
	VPANDN    Y1, Y4, Y1  // plain: in range, and not one of "#$%*"
	VPMOVMSKB Y1, AX
	NOTL      AX
	TESTL     AX, AX
	JNE       found
	MOVQ      DX, BX
	JMP       loop

found:
	BSFL AX, AX
	ADDQ AX, BX

done:
	MOVQ BX, ret+16(FP)
	VZEROUPPER
	RET
