package pathdiff

import (
	"encoding/binary"
	"slices"
)

// The verdict of a path depends only on which patterns of the crawler's
// rules match it (RFC 9309 section 2.2.2: the most specific match wins,
// measured in octets; Google's matcher: the longest pattern in wire form,
// allow winning a tie). A pattern with '*' and a final '$' is a regular
// language, so the pair of verdicts (old, new) is a function of the state
// of one automaton that runs every pattern of both files at once: the
// subset construction over the patterns' positions. Every state it can
// reach is a class of paths that both files answer alike; exploring all of
// them decides whether any path changes verdict, and breadth-first order
// gives each difference its shortest witness.

// The kinds of a pattern position.
const (
	posLiteral     = iota // the next path byte must equal the literal
	posStar               // '*': any run of bytes
	posEnd                // the end of a pattern without '$': it matched, and stays matched
	posEndAnchored        // the end of a pattern ending in '$': it matches if the path ends here
)

// automaton holds the positions of a set of patterns: each pattern of n
// bytes (without a final '$') takes n+1 consecutive positions, the last
// its end.
type automaton struct {
	kind    []uint8
	lit     []byte
	pattern []int32 // the pattern each position belongs to
	start   []int32 // each pattern's first position
	index   map[string]int32
	classes []byte // one representative byte of each class of path bytes
}

func newAutomaton() *automaton { return &automaton{index: map[string]int32{}} }

// add adds a pattern in wire form, once, and returns its index.
func (a *automaton) add(wire string) int32 {
	if k, ok := a.index[wire]; ok {
		return k
	}
	k := int32(len(a.start))
	a.index[wire] = k
	a.start = append(a.start, int32(len(a.kind)))
	body, anchored := wire, false
	if n := len(wire); n > 0 && wire[n-1] == '$' {
		body, anchored = wire[:n-1], true
	}
	for i := 0; i < len(body); i++ {
		if body[i] == '*' {
			a.kind = append(a.kind, posStar)
			a.lit = append(a.lit, 0)
		} else {
			a.kind = append(a.kind, posLiteral)
			a.lit = append(a.lit, body[i])
		}
		a.pattern = append(a.pattern, k)
	}
	end := uint8(posEnd)
	if anchored {
		end = posEndAnchored
	}
	a.kind = append(a.kind, end)
	a.lit = append(a.lit, 0)
	a.pattern = append(a.pattern, k)
	return k
}

// Path bytes and their roles in wire form. A URL's path, brought to wire
// form as the matcher brings it (the package documentation of robotstxt),
// holds no byte >= 0x80, no NUL (Google reads the path as a C string) and
// no '#' (a fragment is not part of the path), and every %xx escape in it
// has upper-case hex digits. Only paths of that form are asked about.
const (
	roleOther = iota
	rolePercent
	roleUpperHex // 0-9, A-F
	roleLowerHex // a-f
)

func roleOf(c byte) int {
	switch {
	case c == '%':
		return rolePercent
	case '0' <= c && c <= '9' || 'A' <= c && c <= 'F':
		return roleUpperHex
	case 'a' <= c && c <= 'f':
		return roleLowerHex
	}
	return roleOther
}

// pathByte reports whether c can stand in a path in wire form.
func pathByte(c byte) bool { return c != 0 && c != '#' && c < 0x80 }

// The states of the automaton that keeps to wire form: after a '%', after
// '%' and a hex digit (upper- or lower-case), elsewhere; a lower-case
// escape is a dead end.
const (
	wireNeutral = iota
	wirePercent
	wireHexUpper
	wireHexLower
	wireDead
)

func wireStep(s uint8, c byte) uint8 {
	r := roleOf(c)
	if r == rolePercent {
		return wirePercent
	}
	switch s {
	case wirePercent:
		switch r {
		case roleUpperHex:
			return wireHexUpper
		case roleLowerHex:
			return wireHexLower
		}
	case wireHexUpper:
		if r == roleLowerHex {
			return wireDead
		}
	case wireHexLower:
		if r == roleUpperHex || r == roleLowerHex {
			return wireDead
		}
	}
	return wireNeutral
}

// preferred are the representatives tried first for the path bytes no
// pattern names, so that witnesses read well.
const preferred = "xzqyjkwvuhgtsrponmli0123456789ABCDEFabcdef%-_.~!"

// makeClasses partitions the path bytes: each byte a pattern names
// literally is a class of its own; the others fall in four classes by their
// role in wire form, each with one representative. Bytes of one class move
// every pattern position and the wire-form state alike, so one
// representative stands for them all.
func (a *automaton) makeClasses() {
	var literal [256]bool
	for i, k := range a.kind {
		if k == posLiteral {
			literal[a.lit[i]] = true
		}
	}
	a.classes = a.classes[:0]
	for c := 1; c < 0x80; c++ {
		if literal[c] && pathByte(byte(c)) {
			a.classes = append(a.classes, byte(c))
		}
	}
	var have [4]bool
	pick := func(c byte) {
		if !pathByte(c) || literal[c] || have[roleOf(c)] {
			return
		}
		have[roleOf(c)] = true
		a.classes = append(a.classes, c)
	}
	for i := 0; i < len(preferred); i++ {
		pick(preferred[i])
	}
	for c := 1; c < 0x80; c++ {
		pick(byte(c))
	}
}

// stepper computes successor states, with its scratch space.
type stepper struct {
	a    *automaton
	mark []uint32
	gen  uint32
}

func newStepper(a *automaton) *stepper {
	return &stepper{a: a, mark: make([]uint32, len(a.kind))}
}

func (s *stepper) next() {
	s.gen++
	if s.gen == 0 {
		clear(s.mark)
		s.gen = 1
	}
}

// addClosure adds q and the positions a run of '*' at q lets the pattern
// reach without reading a byte.
func (s *stepper) addClosure(out []int32, q int32) []int32 {
	for {
		if s.mark[q] == s.gen {
			return out
		}
		s.mark[q] = s.gen
		out = append(out, q)
		if s.a.kind[q] != posStar {
			return out
		}
		q++
	}
}

// initial returns the positions before any byte is read.
func (s *stepper) initial() []int32 {
	s.next()
	var out []int32
	for _, q := range s.a.start {
		out = s.addClosure(out, q)
	}
	return out
}

// step returns the positions after reading c from positions, sorted.
func (s *stepper) step(out, positions []int32, c byte) []int32 {
	s.next()
	a := s.a
	for _, p := range positions {
		switch a.kind[p] {
		case posLiteral:
			if a.lit[p] == c {
				out = s.addClosure(out, p+1)
			}
		case posStar, posEnd:
			out = s.addClosure(out, p)
		}
	}
	if !slices.IsSorted(out) {
		slices.Sort(out)
	}
	return out
}

// stateKey encodes a state: its wire-form state, best rules, and its
// sorted positions as varint deltas (a byte or two each, where four
// would take the same memory as the work that made them).
func stateKey(buf []byte, wire uint8, b bests, positions []int32) []byte {
	buf = append(buf[:0], wire)
	for f := range b {
		for k := range b[f] {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(b[f][k]))
		}
	}
	prev := int32(0)
	for _, p := range positions {
		buf = binary.AppendUvarint(buf, uint64(p-prev))
		prev = p
	}
	return buf
}

// keyHeader is the length of a state key before its positions.
const keyHeader = 1 + 4*4

// decodePositions returns the positions of a state key.
func decodePositions(dst []int32, key string) []int32 {
	return decodePositionsAt(dst, key, keyHeader)
}

// decodePositionsAt returns the positions of a key whose header is
// header bytes long.
func decodePositionsAt(dst []int32, key string, header int) []int32 {
	dst = dst[:0]
	prev := int32(0)
	for i := header; i < len(key); {
		var d uint64
		for shift := 0; ; shift += 7 {
			c := key[i]
			i++
			d |= uint64(c&0x7F) << shift
			if c < 0x80 {
				break
			}
		}
		prev += int32(d)
		dst = append(dst, prev)
	}
	return dst
}
