//go:build !purego

#include "textflag.h"

// func plainBlocks(p *byte, n int) int
//
// See plainPrefix (scoped.go): the plain pattern bytes are 0x21 to 0x7E
// but "#$%*". This returns the index of the first byte of p[:n] that is
// not one, within whole blocks of 32 bytes, or the bytes of the whole
// blocks (n rounded down to 32) when all are.
TEXT ·plainBlocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DI

	MOVL         $0x20, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y10 // 0x20
	MOVL         $0x7F, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y11 // 0x7F
	MOVL         $0x23, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y12 // '#', the first of "#$%"
	MOVL         $0x02, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y13 // 2
	MOVL         $0x2A, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y14 // '*'

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
