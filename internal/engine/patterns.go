package engine

import "github.com/seed50c7eacc/robotstxt/internal/pattern"

// Rule patterns and the wire form live in internal/pattern, shared with
// the lint package. These are the names the engine's files use, where a
// local "pattern" would hide the package; each is inlined away.

// matchPattern reports whether pattern matches path as Google does (see
// pattern.Match).
func matchPattern(p, path string) bool { return pattern.Match(p, path) }

// literalPrefix returns the bytes of p before its first '*' or final '$',
// and whether p is only that (see pattern.LiteralPrefix).
func literalPrefix(p string) (prefix string, whole bool) { return pattern.LiteralPrefix(p) }

// wireLen measures s in wire form up to its first NUL or '#' (see
// pattern.WireLen).
func wireLen(s string) (end, n int, changed bool) { return pattern.WireLen(s) }

// appendEscaped appends s in wire form to dst (see pattern.AppendEscaped).
func appendEscaped(dst []byte, s string) []byte { return pattern.AppendEscaped(dst, s) }
