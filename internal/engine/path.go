package engine

import (
	"math/bits"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// pathBufSize is how long a URL's path may be, once in wire form, for
// Allowed to re-encode it without allocating. Paths already in wire form
// never need a buffer.
const pathBufSize = 2048

// pathStart returns the index in url where its path, params and query
// start, as Google's GetPathParamsQuery finds them: the URL is not parsed
// or normalized, only searched for its first delimiters. It returns -1
// when the path is just "/" (there is none, or a fragment comes first).
func pathStart(url string) int {
	if len(url) >= 8 {
		// The common schemes, which the general search below would skip
		// the same way.
		switch w := swar.Load64(url, 0); {
		case w == httpsScheme:
			p, hash := indexPathStart(url, len("https://"))
			return pathFound(p, hash)
		case w&^(0xFF<<56) == httpScheme: // the eighth byte is the host's
			p, hash := indexPathStart(url, len("http://"))
			return pathFound(p, hash)
		}
	}
	s := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		s = 2 // a network-path reference: skip to the authority
	}
	p, hash := indexPathStart(url, s)
	// Google skips a scheme when "://" occurs before the first '/', '?' or
	// ';'. That "://" holds a '/', so it can only be the one at p-1.
	if p > s && url[p-1] == ':' && url[p] == '/' && p+1 < len(url) && url[p+1] == '/' {
		var h bool
		p, h = indexPathStart(url, p+2)
		hash = hash || h
	}
	return pathFound(p, hash)
}

// pathFound returns p, or -1 if a fragment starts before it.
func pathFound(p int, hash bool) int {
	if hash {
		return -1
	}
	return p
}

// The first eight bytes of "https://" and the first seven of "http://", as
// swar.Load64 reads them.
var (
	httpsScheme = swar.Load64("https://", 0)
	httpScheme  = swar.Load64("http://\x00", 0)
)

// pathClass marks the bytes indexPathStart looks for.
var pathClass = func() (t [256]bool) {
	for _, c := range "/?;#" {
		t[c] = true
	}
	return t
}()

// indexPathStart returns the index of the first '/', '?' or ';' in url at
// or after from, or -1, and whether a '#' comes before it.
func indexPathStart(url string, from int) (int, bool) {
	hash := false
	i := from
	for i+8 <= len(url) { // eight bytes at a time: see swar.HasZeroByte
		w := swar.Load64(url, i)
		m := pathDelimiters(w)
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if url[i] != '#' {
			return i, hash
		}
		hash = true
		i++
	}
	for ; i < len(url); i++ {
		if !pathClass[url[i]] {
			continue
		}
		if url[i] != '#' {
			return i, hash
		}
		hash = true
	}
	return -1, hash
}

// wirePath returns the path of url as the matcher sees it (see findPath
// and rewritePath), for code that matches paths outside decideURL. It may
// write to buf; the result is valid until buf is reused.
func wirePath(url string, buf *[pathBufSize]byte) string {
	path, n, rewrite := findPath(url)
	if !rewrite {
		return path
	}
	return rewritePath(path, n, buf)
}

// plainPath returns the path of url when url starts with "https://" or
// "http://" and its path starts with '/' and is in wire form with no byte
// findPath would cut or rewrite: ok is false for every other URL, which
// findPath then reads. It is findPath for the URLs a crawler mostly asks
// about, in one pass of eight bytes at a time over the host, then the
// path.
func plainPath(url string) (path string, ok bool) {
	n := len(url)
	if n < 16 {
		return "", false
	}
	// Every load below reads 8 bytes at 0 <= i <= n-8, which the loops'
	// bounds guarantee: unchecked (swar.Load64At), as in the tokenizer's
	// loops, where the checks cost about as much as a word's test.
	i := len("https://")
	if w := swar.Load64At(url, 0); w != httpsScheme {
		if w&^(0xFF<<56) != httpScheme { // the eighth byte is the host's
			return "", false
		}
		i = len("http://")
	}
	// The host ends at the first '/', '?', ';' or '#' (see pathStart).
	for {
		if k := n - i; k < 8 {
			// The last k bytes, in the low bytes of the URL's last eight.
			m := pathDelimiters(swar.Load64At(url, n-8)>>(8*(8-k))) & (1<<(8*k) - 1)
			if m == 0 {
				return "", false // no path
			}
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		if m := pathDelimiters(swar.Load64At(url, i)); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		i += 8
	}
	if url[i] != '/' {
		return "", false
	}
	// No byte below '&' (NUL, '#', '%' among them) or >= 0x80 (see
	// pattern.WireLen): the path is as the matcher sees it.
	j := i
	for ; j <= n-8; j += 8 {
		if wireCheck(swar.Load64At(url, j)) != 0 {
			return "", false
		}
	}
	if k := n - j; k > 0 {
		// The last k bytes, in the low bytes of the URL's last eight (the
		// host's bytes come before the path's).
		if wireCheck(swar.Load64At(url, n-8)>>(8*(8-k)))&(1<<(8*k)-1) != 0 {
			return "", false
		}
	}
	return url[i:], true
}

// pathDelimiters flags the bytes of w that end a host ('/', '?', ';' and
// '#'); the lowest flag is the first. '/' and '?' differ in one bit
// (0x10), which one test ignores, and the flags are masked once (see
// swar.ZeroFlags): small enough to be inlined in the loops that call it.
func pathDelimiters(w uint64) uint64 {
	return (swar.ZeroFlags(w|swar.Repeat(0x10)^swar.Repeat('?')) | swar.ZeroFlags(w^swar.Repeat(';')) | swar.ZeroFlags(w^swar.Repeat('#'))) & swar.HighBits
}

// wireCheck flags the bytes of w below '&' or >= 0x80, which the wire
// form may cut or rewrite (see pattern.WireLen).
func wireCheck(w uint64) uint64 { return swar.HasLess(w, '%'+1) | w&swar.HighBits }

// findPath returns the path of url, without its fragment and cut at a NUL,
// and whether it must be rewritten: given a leading '/' or brought to wire
// form, n bytes long once rewritten.
func findPath(url string) (path string, n int, rewrite bool) {
	if p, ok := plainPath(url); ok {
		return p, len(p), false
	}
	return scanPath(url)
}

// scanPath is findPath for every URL.
func scanPath(url string) (path string, n int, rewrite bool) {
	path, prefixed := "/", false
	if p := pathStart(url); p >= 0 {
		path = url[p:]
		prefixed = path[0] != '/'
	}
	end, n, changed := wireLen(path) // stops at the fragment
	if prefixed {
		n++
	}
	return path[:end], n, changed || prefixed
}

// rewritePath returns path, n bytes long once rewritten, with a leading
// '/' when it lacks one and in wire form. It writes to buf, or to a new
// buffer if it does not fit.
func rewritePath(path string, n int, buf *[pathBufSize]byte) string {
	out := buf[:0]
	if n > len(buf) {
		out = make([]byte, 0, n)
	}
	if path == "" || path[0] != '/' {
		out = append(out, '/')
	}
	out = appendEscaped(out, path)
	// out is never written again while the result is in use, so viewing it
	// in place is safe and keeps it off the heap.
	return swar.String(out)
}
