package fetch

import (
	"net/url"
	"strings"
)

// The readings of a request's path.
//
// robotstxt.Robots.Allowed matches a URL exactly as written, as Google's
// library does, and that is right for a question about a URL. A request,
// though, is read by a server, and servers read one path in several
// spellings: /public/../private/x, /public/%2E%2E/private/x, //private/x
// and /%70rivate/x are all /private/x to nginx. So before a request is
// sent, the Transport checks each path a common server may resolve it to,
// and refuses the request if robots.txt disallows any of them:
//
//   - the path as sent;
//   - the path normalized as RFC 3986 section 6.2.2 says every URI may
//     be: percent-encoded unreserved characters decoded (section 6.2.2.2;
//     RFC 9309 section 2.2.2 compares paths so too) and dot segments
//     removed (sections 5.2.4 and 6.2.2.3), %2E and %2e included;
//   - that, with repeated slashes merged (Go's path.Clean, which
//     http.ServeMux applies, and static file servers that map a path to a
//     file name);
//   - the path with every %xx decoded, %2F included, repeated slashes
//     merged and dot segments removed: what nginx resolves a location and
//     a file from (merge_slashes is on by default);
//   - the same without merging slashes (nginx with merge_slashes off);
//   - the same with %2F kept encoded (Apache's default
//     AllowEncodedSlashes Off decodes every other %xx);
//   - when the path holds a backslash, raw or as %5C: nginx's reading with
//     each backslash a slash, as servers on Windows read it (IIS, and
//     nginx and Apache built for Windows, whose file system takes '\'
//     for a separator);
//   - when the path holds a ';': nginx's reading of the path with each
//     segment's parameters (from a ';' to the end of the segment,
//     RFC 3986 section 3.3) removed first, as Tomcat and Jetty read it:
//     /index.jsp;jsessionid=1 is /index.jsp, and /public/..;/private is
//     /private.
//
// A reading that decodes bytes is checked in the form robots.txt rules are
// written in: each decoded byte that may not stand for itself in a path
// ('%', '?', '#', a space, a control or a non-ASCII byte) is encoded
// again, in upper-case hex. The query is not a path: servers do not
// resolve it, and the matcher compares it as written, so each reading is
// checked with the query as sent and, when it differs, with its
// unreserved %xx decoded (an equivalent URI, RFC 3986 section 6.2.2.2).
//
// Each reading is one linear pass over the path, and there are at most
// eight, so a hostile path costs a bounded, linear amount of work.

// maxReadings bounds the readings of a path (see pathReadings).
const maxReadings = 8

// pathReadings returns the distinct readings of an escaped path (as it is
// sent on the wire, starting with '/'), the path as sent first. A path
// without '%', '.', '\', ';' or "//" has only itself.
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
	return readings
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
// no '.', no '\', no ';', no "//".
func plainPath(path string) bool {
	return !strings.ContainsAny(path, `%.\;`) && !strings.Contains(path, "//")
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
// section 3.3: unreserved, sub-delims, ':', '@' and '/') is kept, and
// every other one is percent-encoded in upper-case hex. With
// keepEscapes, a '%' starts an escape decodeAll kept, and stays.
func encodeDecoded(s string, keepEscapes bool) string {
	keep := func(c byte) bool { return isPathByte(c) || keepEscapes && c == '%' }
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
