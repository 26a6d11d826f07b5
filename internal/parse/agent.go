package parse

import (
	"slices"
	"strings"
)

// IsGlobalAgent reports whether a user-agent value names every crawler:
// "*" alone or followed by white space (Google reads "* foo" as "*").
func IsGlobalAgent(value string) bool {
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || IsSpace(value[1]))
}

// ProductToken returns the leading run of ASCII letters, '-' and '_' of a
// user-agent value: "Googlebot/2.1" is "Googlebot", "AB42bot" is "AB" and
// "*foo" is "". Google compares only this token with a crawler's name.
func ProductToken(value string) string {
	for i := 0; i < len(value); i++ {
		if !IsTokenByte(value[i]) {
			return value[:i]
		}
	}
	return value
}

// IsTokenByte reports whether c may be part of a product token (RFC 9309
// section 2.2.1: an ASCII letter, '-' or '_'). It reads a table, not a
// chain of comparisons, whose branches mispredict on the letters of a
// token: a corpus pass asking one question a file went from 291 K to
// 261 K mispredicted branches (cachegrind's model).
func IsTokenByte(c byte) bool { return tokenByte[c] }

// tokenByte marks the bytes IsTokenByte accepts.
var tokenByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
	}
	return t
}()

// HasUpper reports whether s holds an ASCII upper-case letter.
func HasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// AgentToken returns the lower-cased product token of a user-agent value:
// the name agents are matched by, ignoring case.
func AgentToken(value string) string {
	t := ProductToken(value)
	if !HasUpper(t) {
		return t
	}
	b := []byte(t)
	for i, c := range b {
		b[i] = LowerASCII(c)
	}
	return string(b)
}

// A Naming says that a group names an agent token.
type Naming struct {
	Token string // lower-cased product token, as AgentToken returns
	Group int32
}

// SortNamings sorts names by token, then by group: the order NextAgent
// reads them in.
func SortNamings(names []Naming) {
	const small = 12
	if len(names) > small {
		slices.SortFunc(names, compareNamings)
		return
	}
	// Most files name a few agents: an insertion sort, without the
	// general sort's calls through a function value.
	for i := 1; i < len(names); i++ {
		v := names[i]
		j := i
		for ; j > 0 && compareNamings(names[j-1], v) > 0; j-- {
			names[j] = names[j-1]
		}
		names[j] = v
	}
}

// compareNamings orders names by token, then by group. Tokens mostly
// differ in their first byte, which decides without a call to compare
// strings.
func compareNamings(a, b Naming) int {
	if len(a.Token) > 0 && len(b.Token) > 0 && a.Token[0] != b.Token[0] {
		return int(a.Token[0]) - int(b.Token[0])
	}
	if c := strings.Compare(a.Token, b.Token); c != 0 {
		return c
	}
	return int(a.Group - b.Group)
}

// NextAgent reads the run of sorted names that starts at names[i], all
// with one token. It returns the token; the groups that name it, in file
// order and each once (the groups whose rules Google merges for that
// agent), appended to groups[:0]; and the index after the run. The caller
// owns the groups buffer, so that reading every agent allocates little.
func NextAgent(names []Naming, i int, groups []int32) (token string, _ []int32, next int) {
	groups = groups[:0]
	j := i
	for ; j < len(names) && names[j].Token == names[i].Token; j++ {
		if n := len(groups); n == 0 || groups[n-1] != names[j].Group {
			groups = append(groups, names[j].Group)
		}
	}
	return names[i].Token, groups, j
}

// IndexDirectory returns the directory of an allow pattern whose last path
// segment starts with "index.htm": allowing "/d/index.html" also allows
// "/d/", as the pattern dir+"$". Google tries the derived pattern only when
// the original does not match; since it is always shorter, trying both and
// keeping the longer match decides the same.
func IndexDirectory(pattern string) (dir string, ok bool) {
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return "", false
	}
	return pattern[:slash+1], true
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsDigits reports whether s is one or more ASCII digits.
func IsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !IsDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// IsDecimal reports whether s is digits with at most one '.' and at least
// one digit: a valid crawl-delay.
func IsDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case IsDigit(c):
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}
