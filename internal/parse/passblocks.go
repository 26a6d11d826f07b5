package parse

// Passing over the lines a filter rejects (Tokenizer.passLines) is most
// of the work of reading a file for one agent: the lines of the groups
// that do not apply. Found a line at a time, each line's end is a call of
// the library's vectorized IndexByte (two in files of CR LF pairs), and
// the call and the branch at its end cost more than the search on lines
// of a few dozen bytes. passBlocks reads 32 bytes at a time instead,
// finding every line end and line start of a block at once, and stops at
// the first line the pass cannot decide alone. It reads two blocks at a
// time where it can, as one of 64 bytes, so that the work on their bit
// masks is shared: a corpus pass asking one question a file went from
// 64.7 M to 62.3 M instructions (BenchmarkParseCheckTwoAgents, checks=1).
// The blocks read, and so the answer, are the same either way. A filter
// of one letter (AgentLines, the filter of the groups that do not apply)
// is compared once a block, not three times: 60.4 M to 59.5 M.

// minVectorPass is how many bytes must be left for passLines to call
// passBlocks: it reads 32 bytes at a time, and the byte after.
const minVectorPass = 64

// passBlocksGo is what passBlocks computes, written plainly: the slow twin
// the tests compare it with, and its stand-in where it is not written.
//
// body[0] starts a line. Lines end at LF, at CR, or at CR LF (one end).
// Reading whole blocks of 32 bytes, while the byte after the block is in
// body, it finds the first line whose first byte that is not white space
// within a line (' ', '\t', '\v', '\f') is, with its case bit set
// (| 0x20), one of the three bytes of letters (low byte first): found is
// true, off is where that line starts, and terms is how many lines end
// before it. Otherwise found is false, off is the last line start in the
// blocks read or just after them (0 if none), and terms is how many lines
// end before it. The lines passed are all the others, empty lines and
// lines of white space alone among them.
func passBlocksGo(body string, letters uint64) (off, terms int, found bool) {
	l0, l1, l2 := byte(letters), byte(letters>>8), byte(letters>>16)
	lineStart, leading := true, false
	ends := 0
	n := len(body)
	for k := 0; k+32 < n; k += 32 {
		for j := k; j < k+32; j++ {
			c := body[j]
			if lineStart {
				leading = true
			}
			if leading && c != ' ' && c != '\t' && c != '\v' && c != '\f' {
				leading = false
				if c|0x20 == l0 || c|0x20 == l1 || c|0x20 == l2 {
					return off, terms, true
				}
			}
			lineStart = c == '\n' || c == '\r' && body[j+1] != '\n'
			if lineStart {
				ends++
				off, terms = j+1, ends
			}
		}
	}
	return off, terms, false
}

// vectorLetters returns the letters of set for passBlocks, packed a byte
// each (repeated up to three), and whether set is made of up to three
// letters in both cases, which passBlocks can test for; a filter of any
// other set is passed over a line at a time.
func vectorLetters(set *[256]bool) (letters uint64, ok bool) {
	var found []byte
	for c := 0; c < 256; c++ {
		if !set[c] {
			continue
		}
		lower := byte(c) | 0x20
		if lower < 'a' || lower > 'z' || !set[lower] || !set[lower&^0x20] {
			return 0, false
		}
		if byte(c) == lower {
			found = append(found, lower)
		}
	}
	if len(found) == 0 || len(found) > 3 {
		return 0, false
	}
	for len(found) < 3 {
		found = append(found, found[0])
	}
	return uint64(found[0]) | uint64(found[1])<<8 | uint64(found[2])<<16, true
}
