//go:build !purego

#include "textflag.h"

// blankByNibble holds, at each low half of a byte (in each 16-byte lane,
// for VPSHUFB), the one white space byte within a line that has it: ' '
// (0x20) at 0, '\t' at 9, '\v' at 0xB, '\f' at 0xC, and ' ' elsewhere,
// which no byte of that low half equals. A byte is in B when it equals
// its entry: one shuffle and one comparison, where a range test took
// five steps and LF had to be taken out of it. (A byte of the high bit
// set is shuffled to 0, which it is not.)
DATA blankByNibble<>+0(SB)/8, $0x2020202020202020
DATA blankByNibble<>+8(SB)/8, $0x2020200C0B200920
DATA blankByNibble<>+16(SB)/8, $0x2020202020202020
DATA blankByNibble<>+24(SB)/8, $0x2020200C0B200920
GLOBL blankByNibble<>(SB), RODATA|NOPTR, $32

// func passBlocks(p *byte, n int, letters uint64) (off int, terms int, found bool)
//
// See passBlocksGo (passblocks.go) for the contract. Bytes are read 32 at
// a time, with the byte after each block, so that a block is read only
// when k+32 < n. Per block, as bit masks: LF, CR, white space within a
// line (B) and the filter's letters in either case (L); then the line
// ends (LF, or CR not followed by LF), the line starts (the bytes after
// line ends), and the first byte of each line that is not white space: a
// line start not in B, or the byte after a run of B that starts at a line
// start, found by adding the run's first bit to B, whose carry crosses the
// run (and goes on into the next block). A line whose first such byte is
// in L stops the pass.
//
// Registers kept across blocks: SI p, DI n, BX k, R8 the line ends before
// k, R9 the last line start found, R10 the carry of a run of B into the
// block, R11 whether k starts a line.
TEXT ·passBlocks(SB), NOSPLIT, $0-41
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DI
	MOVQ letters+16(FP), AX

	MOVL         $0x0A, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y10    // LF
	MOVL         $0x0D, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y11    // CR
	MOVL         $0x20, DX
	MOVQ         DX, X0
	VPBROADCASTB X0, Y12    // ' ', and the bit that lowers a letter's case
	VMOVDQU      blankByNibble<>(SB), Y13
	MOVQ         AX, X0
	VPBROADCASTB X0, Y7     // the first letter
	SHRQ         $8, AX
	MOVQ         AX, X0
	VPBROADCASTB X0, Y8     // the second
	SHRQ         $8, AX
	MOVQ         AX, X0
	VPBROADCASTB X0, Y9     // the third

	// Whether the three letters are one (AgentLines'): the blocks of 64
	// bytes then compare with it alone. Kept in found's slot, which is
	// written again before returning: no register is left.
	MOVQ  letters+16(FP), AX
	MOVQ  AX, DX
	SHRQ  $8, DX
	XORQ  AX, DX
	ANDL  $0xFFFF, DX       // the first letter against the second and the third
	SETEQ found+40(FP)

	XORQ BX, BX
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	MOVL $1, R11

	// Two blocks at a time, as one of 64 bytes whose masks are 64 bits
	// wide: the work on the masks, most of a block's, is then shared by
	// the two. The blocks read are the same as one at a time (k+64 < n is
	// k+32 < n for both); the last, if any, is read alone below.
loop64:
	LEAQ 64(BX), DX
	CMPQ DX, DI
	JGE  loop

	VMOVDQU   (SI)(BX*1), Y0
	VMOVDQU   32(SI)(BX*1), Y15
	VPCMPEQB  Y10, Y0, Y1
	VPMOVMSKB Y1, R12
	VPCMPEQB  Y10, Y15, Y1
	VPMOVMSKB Y1, AX
	SHLQ      $32, AX
	ORQ       AX, R12       // LF
	VPCMPEQB  Y11, Y0, Y2
	VPMOVMSKB Y2, R13
	VPCMPEQB  Y11, Y15, Y2
	VPMOVMSKB Y2, AX
	SHLQ      $32, AX
	ORQ       AX, R13       // CR
	VPSHUFB   Y0, Y13, Y3
	VPCMPEQB  Y0, Y3, Y3
	VPMOVMSKB Y3, R14
	VPSHUFB   Y15, Y13, Y3
	VPCMPEQB  Y15, Y3, Y3
	VPMOVMSKB Y3, AX
	SHLQ      $32, AX
	ORQ       AX, R14       // B
	VPOR      Y12, Y0, Y4
	VPCMPEQB  Y7, Y4, Y5
	VPOR      Y12, Y15, Y3
	VPCMPEQB  Y7, Y3, Y6
	CMPB      found+40(FP), $0
	JNE       oneLetter64   // the other two letters are the first
	VPCMPEQB  Y8, Y4, Y1
	VPOR      Y1, Y5, Y5
	VPCMPEQB  Y9, Y4, Y1
	VPOR      Y1, Y5, Y5
	VPCMPEQB  Y8, Y3, Y1
	VPOR      Y1, Y6, Y6
	VPCMPEQB  Y9, Y3, Y1
	VPOR      Y1, Y6, Y6

oneLetter64:
	VPMOVMSKB Y5, R15
	VPMOVMSKB Y6, AX
	SHLQ      $32, AX
	ORQ       AX, R15       // L

	XORL  CX, CX
	CMPB  (SI)(DX*1), $0x0A
	SETEQ CL
	SHLQ  $63, CX
	MOVQ  R12, AX
	SHRQ  $1, AX
	ORQ   CX, AX
	NOTQ  AX
	ANDQ  R13, AX
	ORQ   R12, AX           // the line ends

	MOVQ AX, CX
	SHLQ $1, CX
	ORQ  R11, CX            // the line starts
	MOVQ AX, R11
	SHRQ $63, R11

	MOVQ CX, R12
	ANDQ R14, R12
	MOVQ R14, DX
	ADDQ R12, DX
	ADDQ R10, DX
	// The carry out of bit 63 of B + S + carry, S the line starts in B
	// (S within B): the top bit of S | B &^ sum.
	MOVQ DX, R13
	NOTQ R13
	ANDQ R14, R13
	ORQ  R12, R13
	SHRQ $63, R13
	MOVQ R13, R10
	MOVQ R14, R13
	NOTQ R13
	ANDQ R13, DX            // the bytes after the runs of B from line starts
	ANDQ R13, CX            // the line starts not in B
	ORQ  DX, CX
	ANDQ R15, CX            // those in L
	JNE  found

	POPCNTQ AX, CX
	ADDQ    CX, R8
	BSRQ    AX, CX
	LEAQ    1(BX)(CX*1), R15
	CMOVQNE R15, R9
	ADDQ    $64, BX
	JMP     loop64

loop:
	LEAQ 32(BX), DX
	CMPQ DX, DI
	JGE  done

	VMOVDQU   (SI)(BX*1), Y0
	VPCMPEQB  Y10, Y0, Y1
	VPMOVMSKB Y1, R12       // LF
	VPCMPEQB  Y11, Y0, Y2
	VPMOVMSKB Y2, R13       // CR
	VPSHUFB   Y0, Y13, Y3   // the blank byte of each byte's low half
	VPCMPEQB  Y0, Y3, Y3
	VPMOVMSKB Y3, R14       // B
	VPOR      Y12, Y0, Y4   // lower case
	VPCMPEQB  Y7, Y4, Y5
	VPCMPEQB  Y8, Y4, Y6
	VPOR      Y5, Y6, Y5
	VPCMPEQB  Y9, Y4, Y6
	VPOR      Y5, Y6, Y5
	VPMOVMSKB Y5, R15       // L

	// The line ends: LF, and CR unless LF follows it (the next block's
	// first byte too).
	XORL  CX, CX
	CMPB  (SI)(DX*1), $0x0A
	SETEQ CL
	SHLL  $31, CX
	MOVL  R12, AX
	SHRL  $1, AX
	ORL   CX, AX
	NOTL  AX
	ANDL  R13, AX
	ORL   R12, AX           // the line ends

	// The line starts: after each end, and k if the last block's last
	// byte ended a line.
	MOVL AX, CX
	SHLL $1, CX
	ORL  R11, CX
	MOVL AX, R11
	SHRL $31, R11

	// The first bytes not white space: the line starts not in B, and the
	// byte each run of B that starts at a line start carries into.
	MOVL CX, R12
	ANDL R14, R12
	MOVL R14, DX
	ADDQ R12, DX
	ADDQ R10, DX
	MOVQ DX, R10
	SHRQ $32, R10           // the carry into the next block
	MOVL R14, R13
	NOTL R13
	ANDL R13, DX            // the bytes after those runs (32 bits)
	ANDL R13, CX            // the line starts not in B
	ORL  DX, CX
	ANDL R15, CX            // those in L
	JNE  found

	POPCNTL AX, CX
	ADDQ    CX, R8
	BSRL    AX, CX          // the block's last line end, if any
	LEAQ    1(BX)(CX*1), R15
	CMOVQNE R15, R9
	ADDQ    $32, BX
	JMP     loop

found:
	// The line of the first byte found starts after the last line end
	// before it, in this block or before (R9).
	// In 64-bit words for either loop: the 32-byte loop's masks are
	// written by 32-bit operations, which clear their upper halves.
	BSFQ    CX, DX
	MOVQ    DX, CX
	MOVQ    $1, R15
	SHLQ    CX, R15
	DECQ    R15
	ANDQ    R15, AX         // the line ends before that byte
	POPCNTQ AX, CX
	ADDQ    CX, R8
	BSRQ    AX, CX
	LEAQ    1(BX)(CX*1), R15
	CMOVQNE R15, R9
	MOVQ    R9, off+24(FP)
	MOVQ    R8, terms+32(FP)
	MOVB    $1, found+40(FP)
	VZEROUPPER
	RET

done:
	MOVQ R9, off+24(FP)
	MOVQ R8, terms+32(FP)
	MOVB $0, found+40(FP)
	VZEROUPPER
	RET
