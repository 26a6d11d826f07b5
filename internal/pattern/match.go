package pattern

import "strings"

// Match reports whether pattern matches path the way Google's
// RobotsMatchStrategy::Matches decides it: the pattern is anchored at the
// start of the path and need not reach its end; '*' matches any run of
// bytes; a '$' that is the pattern's last byte anchors it at the end of the
// path; every other byte, '$' included, matches itself.
//
// Google tracks the set of reachable path positions, costing
// O(len(pattern)*len(path)). Matching each literal piece between '*'s at its
// leftmost place gives the same answer: a later piece can only gain from an
// earlier piece ending as soon as possible. Each search starts where the
// previous piece ended, so the cost is that of a few substring searches.
func Match(pattern, path string) bool {
	anchored := len(pattern) > 0 && pattern[len(pattern)-1] == '$'
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	if anchored && !endsAsAnchored(pattern, path) {
		return false
	}
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	path = path[star:]
	pattern = pattern[star+1:]
	for {
		star = strings.IndexByte(pattern, '*')
		if star < 0 {
			if anchored {
				return strings.HasSuffix(path, pattern)
			}
			return strings.Contains(path, pattern)
		}
		piece := pattern[:star]
		pattern = pattern[star+1:]
		if piece == "" {
			continue
		}
		i := strings.Index(path, piece)
		if i < 0 {
			return false
		}
		path = path[i+len(piece):]
	}
}

// endsAsAnchored reports whether path ends with the last piece of an
// anchored pattern, the bytes after its last '*' (its '$' removed), which
// every path it matches ends with: read backwards from the ends, most
// paths that do not match (a "/*.pdf$" asked about an HTML page) differ
// at the first byte, before any search.
func endsAsAnchored(pattern, path string) bool {
	j := len(path)
	for i := len(pattern) - 1; i >= 0 && pattern[i] != '*'; i-- {
		if j--; j < 0 || path[j] != pattern[i] {
			return false
		}
	}
	return true
}

// LiteralPrefix returns the bytes of pattern before its first '*' or a
// final '$', which start every path the pattern matches, and whether the
// pattern is only that, so that it matches every path that starts with
// them.
func LiteralPrefix(pattern string) (prefix string, whole bool) {
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		return pattern[:i], false
	}
	if strings.HasSuffix(pattern, "$") {
		return pattern[:len(pattern)-1], false
	}
	return pattern, true
}
