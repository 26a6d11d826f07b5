// Package pathwalk enumerates every short URL path over a small alphabet,
// for the brute-force tests that check an exact comparison of rule lists
// (package diff's property test, package lint's dead rules): the paths a
// comparison must account for, and the length bound that makes the
// enumeration complete.
//
// The bound. Under Google's matcher (RFC 9309 section 2.2.2: the longest
// match in octets decides, allow winning ties) a pattern p0*p1*...*pn[$]
// matches a path when its literal pieces occur in it in order, p0 at the
// start and, with '$', pn at the end. Take a path w and some patterns
// that match it (the rules that decide it in each list compared). Mark
// w's first byte and one occurrence of each pattern's pieces, and replace
// each maximal run of unmarked bytes by one byte no pattern holds ('x'):
// the patterns still match the result w', and every pattern that matches
// w' matches w (each piece's occurrence in w' lies in one marked run, a
// substring of w, in order; a piece at the start or, with '$', at the end
// of w' is at the start or end of w). w' is in wire form when w is: an
// escape cannot straddle 'x', which is not a hex digit. Its length is at
// most MarksBound of those patterns. Each test argues why the patterns it
// bounds keep the answers it compares.
package pathwalk

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
)

// Other is the byte no generated pattern holds, which stands for every
// run of unmarked bytes.
const Other = 'x'

// MarksBound is the length bound of a path in which the first byte and
// one occurrence of each pattern's pieces are marked and every other run
// of bytes is one Other: the marked bytes, and at most one Other after
// each run of them. A pattern starting with a literal byte holds the
// first byte in its first piece, whose run is the first byte's.
func MarksBound(pats ...string) int {
	marked, runs := 1, 1
	for _, s := range pats {
		s = strings.TrimSuffix(s, "$")
		for _, piece := range strings.Split(s, "*") {
			if piece != "" {
				marked += len(piece)
				runs++
			}
		}
		if s != "" && s[0] != '*' {
			marked--
			runs--
		}
	}
	return max(1, marked+runs)
}

// Patterns returns the patterns, in wire form, of a file's allow and
// disallow rules as the matcher reads them (an allow of ".../index.html"
// also allows its directory, as ".../$"), after "" for no rule.
func Patterns(data string) []string {
	pats := []string{""}
	for _, g := range robotstxt.ParseString(data).Groups() {
		for _, r := range g.Rules {
			w := pattern.Escape(r.Pattern)
			pats = append(pats, w)
			if dir, ok := parse.IndexDirectory(w); ok && r.Allow {
				pats = append(pats, dir+"$")
			}
		}
	}
	return pats
}

// PairBound returns the largest MarksBound of a pattern of a and one of b.
func PairBound(a, b []string) int {
	k := 0
	for _, p := range a {
		for _, q := range b {
			k = max(k, MarksBound(p, q))
		}
	}
	return k
}

// Alphabet returns the bytes the patterns name literally, with '/' and
// Other, in byte order.
func Alphabet(pats ...[]string) string {
	set := map[byte]bool{'/': true, Other: true}
	for _, ps := range pats {
		for _, w := range ps {
			for i := 0; i < len(w); i++ {
				if w[i] != '*' && !(w[i] == '$' && i == len(w)-1) {
					set[w[i]] = true
				}
			}
		}
	}
	var b strings.Builder
	for c := 0; c < 256; c++ {
		if set[byte(c)] {
			b.WriteByte(byte(c))
		}
	}
	return b.String()
}

// Count returns how many paths "/" + s, len(s) < k, an alphabet of a bytes
// has (capped past 2^30).
func Count(k, a int) int {
	n, p := 0, 1
	for i := 0; i < k; i++ {
		n += p
		if p *= a; n > 1<<30 {
			break
		}
	}
	return n
}

// First returns the first path "/" + s, len(s) < k, over alphabet, shorter
// paths before their extensions, for which found is true, or "".
func First(k int, alphabet string, found func(path string) bool) string {
	buf := make([]byte, 1, k+1)
	buf[0] = '/'
	var walk func() string
	walk = func() string {
		if found(string(buf)) {
			return string(buf)
		}
		if len(buf) >= k {
			return ""
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			if s := walk(); s != "" {
				return s
			}
			buf = buf[:len(buf)-1]
		}
		return ""
	}
	return walk()
}
