package fetch

import (
	"net/url"
	"strings"
)

// The readings of a request's path, as the Transport's documentation
// lists them (the one list: README and this file point to it), and the
// forms in which they are checked.
//
// Each reading is one linear pass over the path, and there are at most
// maxReadings, so a hostile path costs a bounded, linear amount of work.

// maxReadings bounds the readings of a path (see pathReadings): eight
// readings, each maybe without its trailing slashes.
const maxReadings = 16

// pathReadings returns the distinct readings of an escaped path (as it is
// sent on the wire, starting with '/'), the path as sent first. A plain
// path (see plainPath) has only itself.
func pathReadings(path string) []string {
	if plainPath(path) {
		return []string{path}
	}
	readings := make([]string, 0, maxReadings)
	add := func(r string) {
		for _, seen := range readings {
			if seen == r {
				return
			}
		}
		readings = append(readings, r)
	}
	add(path)
	normal := removeDotSegments(decodeUnreserved(path))
	add(normal)
	add(removeDotSegments(mergeSlashes(normal)))
	decoded := decodeAll(path, false)
	add(encodeDecoded(removeDotSegments(mergeSlashes(decoded)), false))
	add(encodeDecoded(removeDotSegments(decoded), false))
	add(encodeDecoded(removeDotSegments(mergeSlashes(decodeAll(path, true))), true))
	if strings.Contains(decoded, `\`) {
		add(encodeDecoded(removeDotSegments(mergeSlashes(strings.ReplaceAll(decoded, `\`, "/"))), false))
	}
	if strings.Contains(path, ";") {
		add(encodeDecoded(removeDotSegments(mergeSlashes(decodeAll(withoutParams(path), false))), false))
	}
	for _, r := range readings {
		if trimmed := trimTrailingSlashes(r); trimmed != r {
			add(trimmed)
		}
	}
	return readings
}

// trimTrailingSlashes removes the slashes that end a path, but for the
// root's: /a/b// is /a/b, / stays /.
func trimTrailingSlashes(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		return "/"
	}
	return t
}

// withoutParams removes the parameters of each segment of a path: from a
// ';' to the end of its segment.
func withoutParams(path string) string {
	var b strings.Builder
	b.Grow(len(path))
	for path != "" {
		seg, rest, slash := strings.Cut(path, "/")
		seg, _, _ = strings.Cut(seg, ";")
		b.WriteString(seg)
		if slash {
			b.WriteByte('/')
		}
		path = rest
	}
	return b.String()
}

// plainPath reports whether a path has no reading but itself: no '%',
// '.', '\', ';', "//" or trailing slash, and every byte one that a
// decoded reading keeps as it is (see encodeDecoded).
func plainPath(path string) bool {
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '.' || c == ';' || c == '*' || c == '$' || !isPathByte(c): // '%' and '\\' are not path bytes
			return false
		case c == '/' && i > 0 && (path[i-1] == '/' || i == len(path)-1):
			return false
		}
	}
	return true
}

// isUnreserved reports whether c is an unreserved character (RFC 3986
// section 2.3): its percent-encoded form means the same as c itself.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// unhex returns the value of a hex digit, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// percentAt returns the byte that s[i:i+3] encodes, if it is a %xx triplet.
func percentAt(s string, i int) (byte, bool) {
	if i+2 >= len(s) || s[i] != '%' {
		return 0, false
	}
	hi, lo := unhex(s[i+1]), unhex(s[i+2])
	if hi < 0 || lo < 0 {
		return 0, false
	}
	return byte(hi<<4 | lo), true
}

const upperHex = "0123456789ABCDEF"

// decodeUnreserved decodes the %xx triplets of unreserved characters and
// writes the others in upper-case hex (RFC 3986 sections 6.2.2.1 and
// 6.2.2.2).
func decodeUnreserved(s string) string {
	return decodeExcept(s, func(c byte) bool { return !isUnreserved(c) })
}

// decodeAll decodes every %xx triplet of s, as nginx does before it
// resolves a path; with keepSlash, %2F stays encoded (in upper case), as
// Apache keeps it, and so does a decoded '%' (as %25), so that the only
// '%' of the result start escapes. The result is raw bytes otherwise: see
// encodeDecoded.
func decodeAll(s string, keepSlash bool) string {
	return decodeExcept(s, func(c byte) bool { return keepSlash && (c == '/' || c == '%') })
}

// decodeExcept decodes every %xx triplet of s whose byte keep refuses and
// writes the kept ones in upper-case hex.
func decodeExcept(s string, keep func(c byte) bool) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c, ok := percentAt(s, i)
		switch {
		case !ok:
			b.WriteByte(s[i])
			continue
		case keep(c):
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		default:
			b.WriteByte(c)
		}
		i += 2
	}
	return b.String()
}

// encodeDecoded writes a decoded path in the form robots.txt rules are
// compared in: a byte that may stand for itself in a path (RFC 3986
// section 3.3: unreserved, sub-delims, ':', '@' and '/') is kept, but
// for '*' and '$', which a rule reads as a wildcard and an end; every
// other one is percent-encoded in upper-case hex. With keepEscapes, a
// '%' starts an escape decodeAll kept, and stays.
func encodeDecoded(s string, keepEscapes bool) string {
	keep := func(c byte) bool { return isPathByte(c) && c != '*' && c != '$' || keepEscapes && c == '%' }
	n := 0
	for i := 0; i < len(s); i++ {
		if !keep(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if keep(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	return b.String()
}

// isPathByte reports whether c may stand for itself in a path.
func isPathByte(c byte) bool {
	if isUnreserved(c) {
		return true
	}
	switch c {
	case '/', ':', '@', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

// mergeSlashes replaces each run of slashes with one.
func mergeSlashes(s string) string {
	if !strings.Contains(s, "//") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && i > 0 && s[i-1] == '/' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// removeDotSegments removes the "." and ".." segments of an absolute path
// as RFC 3986 section 5.2.4 does; a ".." at the root stays at the root. It
// works segment by segment, in linear time.
func removeDotSegments(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	// segments are the output's segments, each with its leading '/'.
	out := make([]byte, 0, len(s))
	starts := make([]int, 0, 8) // where each segment of out starts
	for rest := s; rest != ""; {
		// Take the next segment, with its leading '/' if any.
		end := strings.IndexByte(rest[1:], '/') + 1
		if end == 0 {
			end = len(rest)
		}
		seg := rest[:end]
		rest = rest[end:]
		name := strings.TrimPrefix(seg, "/")
		switch name {
		case ".":
			if rest == "" {
				out = append(out, '/') // "/a/." is "/a/"
			}
		case "..":
			if n := len(starts); n > 0 {
				out = out[:starts[n-1]]
				starts = starts[:n-1]
			}
			if rest == "" {
				out = append(out, '/') // "/a/b/.." is "/a/"
			}
		default:
			starts = append(starts, len(out))
			out = append(out, seg...)
		}
	}
	if len(out) == 0 || out[0] != '/' {
		out = append([]byte{'/'}, out...)
	}
	return string(out)
}

// requestTarget returns the path and the query of the request target that
// net/http writes for u (URL.RequestURI): the path escaped, starting with
// '/', and the query with its '?' when there is one. It allocates only
// for an Opaque URL, a relative path and a query.
func requestTarget(u *url.URL) (path, query string) {
	if u.Opaque == "" {
		path = u.EscapedPath()
		if path == "" || path[0] != '/' {
			// A hand-made URL's relative path is sent as is; it is
			// checked as the absolute path a server could read it as.
			path = "/" + path
		}
		if u.ForceQuery || u.RawQuery != "" {
			query = "?" + u.RawQuery
		}
		return path, query
	}
	target := u.RequestURI()
	if !strings.HasPrefix(target, "/") {
		// An Opaque "//host/path" is sent in absolute form; anything else
		// not starting with '/' is checked as if it did.
		if i := strings.Index(target, "://"); i >= 0 {
			target = target[i+3:]
			if j := strings.IndexAny(target, "/?"); j >= 0 {
				target = target[j:]
			} else {
				target = ""
			}
		}
		target = "/" + strings.TrimPrefix(target, "/")
	}
	if i := strings.IndexByte(target, '?'); i >= 0 {
		return target[:i], target[i:]
	}
	return target, ""
}
