package fetch

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt"
)

// The rules of a robots.txt as RFC 9309 compares them, and as a server
// reads them.
//
// robotstxt.Robots matches patterns as written, as Google's library does:
// Disallow: /%7Ejoe does not match /~joe, nor Disallow: /%70rivate
// /private, nor Disallow: /a%21b /a!b. RFC 9309 section 2.2.2 decodes a
// percent-encoded unreserved octet before comparison, and a server reads
// every spelling of a byte as that byte: /~joe and /%7Ejoe are one path,
// and so are /a!b and /a%21b. The readings of a request (pathReadings)
// decode it; so that they meet such a rule, the Transport also checks
// them against two copies of the file, one whose patterns have their
// unreserved %xx decoded (RFC 9309's comparison) and one whose patterns
// have every %xx decoded and are written in the form of a decoded
// reading (encodeDecoded), and refuses a request that any disallows.
// Only the Transport does so: Client.Allowed answers as Google's library
// does.

// normalRules are the rewritten copies of a file's rules that differ
// from it: RFC 9309's (unreserved %xx decoded) and a server's (every %xx
// decoded), each nil when no pattern changes.
type normalRules struct {
	rfc, server *rewrittenRules
}

// rewrittenRules are the rules of a file with some patterns rewritten,
// and those patterns as written, by line.
type rewrittenRules struct {
	robots  *robotstxt.Robots
	written map[int]string
}

// asWritten returns v with the pattern of its rule as the file writes it.
func (n *rewrittenRules) asWritten(v robotstxt.Verdict) robotstxt.Verdict {
	if p, ok := n.written[v.Rule.Line]; ok {
		v.Rule.Pattern = p
	}
	return v
}

// normalizedRules returns the copies of the rules of body (whose parse is
// parsed) that RFC 9309 and servers read differently, or nil when no
// pattern reads otherwise to either.
func normalizedRules(body []byte, parsed *robotstxt.Robots) *normalRules {
	if parsed == nil {
		return nil
	}
	body = body[:min(parsed.Size(), len(body))]
	n := &normalRules{
		rfc:    rewriteRules(body, parsed, decodeUnreserved),
		server: rewriteRules(body, parsed, serverPattern),
	}
	if n.rfc == nil && n.server == nil {
		return nil
	}
	return n
}

// serverPattern returns a pattern as a server reads the paths it
// matches: every %xx of its literal parts decoded, then written as a
// decoded reading is (encodeDecoded), so that a byte a rule writes
// escaped meets the same byte sent raw. Its '*' wildcards and its final
// '$' keep their meaning (RFC 9309 section 2.2.3); a literal '$' before
// the end, and a decoded '*' or '$', are written %24 and %2A, as a
// decoded reading writes them.
func serverPattern(p string) string {
	anchored := strings.HasSuffix(p, "$")
	p = strings.TrimSuffix(p, "$")
	var b strings.Builder
	b.Grow(len(p) + 1)
	for i, piece := range strings.Split(p, "*") {
		if i > 0 {
			b.WriteByte('*')
		}
		b.WriteString(encodeDecoded(decodeAll(piece, false), false))
	}
	if anchored {
		b.WriteByte('$')
	}
	return b.String()
}

// rewriteRules returns the rules of body (whose parse is parsed) with
// each allow and disallow pattern rewritten by rewrite, or nil when no pattern changes (but for the case of its hex). The copy
// is the file with those patterns rewritten in place, so its groups,
// lines and other fields are the file's; a rewrite that would not parse
// back to the same rules on the same lines gives nil.
func rewriteRules(body []byte, parsed *robotstxt.Robots, rewrite func(string) string) *rewrittenRules {
	type change struct{ from, to string }
	changes := map[int]change{} // by line
	var want []robotstxt.Rule
	for _, g := range parsed.Groups() {
		for _, r := range g.Rules {
			n := r
			if to := rewrite(r.Pattern); !strings.EqualFold(to, r.Pattern) {
				changes[r.Line] = change{r.Pattern, to}
				n.Pattern = to
			}
			want = append(want, n)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	text := string(body)
	var b strings.Builder
	b.Grow(len(text))
	for line := 1; text != ""; line++ {
		end := strings.IndexAny(text, "\r\n")
		next := end + 1
		switch {
		case end < 0:
			end, next = len(text), len(text)
		case text[end] == '\r' && next < len(text) && text[next] == '\n':
			next++ // CR LF ends one line
		}
		l := text[:end]
		if c, ok := changes[line]; ok {
			// The pattern is the first occurrence of it after the key.
			sep := strings.IndexAny(l, ": \t")
			i := -1
			if sep >= 0 {
				i = strings.Index(l[sep+1:], c.from)
			}
			if i < 0 {
				return nil
			}
			i += sep + 1
			l = l[:i] + c.to + l[i+len(c.from):]
		}
		b.WriteString(l)
		b.WriteString(text[end:next])
		text = text[next:]
	}
	rewritten := robotstxt.ParseString(b.String())
	var got []robotstxt.Rule
	for _, g := range rewritten.Groups() {
		got = append(got, g.Rules...)
	}
	if len(got) != len(want) {
		return nil
	}
	for i := range got {
		if got[i] != want[i] {
			return nil
		}
	}
	written := make(map[int]string, len(changes))
	for line, c := range changes {
		written[line] = c.from
	}
	return &rewrittenRules{rewritten, written}
}
