package fetch

import (
	"bytes"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
)

// The rules of a robots.txt as RFC 9309 compares them.
//
// robotstxt.Robots matches patterns as written, as Google's library does:
// Disallow: /%7Ejoe does not match /~joe, nor Disallow: /%70rivate
// /private. RFC 9309 section 2.2.2 says otherwise (a percent-encoded
// unreserved octet is decoded before comparison), and a server reads
// /~joe and /%7Ejoe as one path: a request for /~joe/x is one for a path
// the file disallows. The readings of a request (pathReadings) decode it;
// so that they meet such a rule, the Transport also checks them against a
// copy of the file whose patterns have their unreserved %xx decoded, and
// refuses a request that either disallows.

// normalRules are the rules of a file as RFC 9309 compares them, and
// the patterns they rewrote, as written, by line.
type normalRules struct {
	robots  *robotstxt.Robots
	written map[int]string
}

// asWritten returns v with the pattern of its rule as the file writes it.
func (n *normalRules) asWritten(v robotstxt.Verdict) robotstxt.Verdict {
	if p, ok := n.written[v.Rule.Line]; ok {
		v.Rule.Pattern = p
	}
	return v
}

// normalizedRules returns the rules of body (whose parse is parsed) with
// the unreserved %xx of each allow and disallow pattern decoded, or nil
// when no pattern has one. The copy is the file with those patterns
// rewritten in place, so its groups, lines and other fields are the
// file's; a rewrite that would not parse back to the same rules on the
// same lines gives nil.
func normalizedRules(body []byte, parsed *robotstxt.Robots) *normalRules {
	if parsed == nil {
		return nil
	}
	body = body[:min(parsed.Size(), len(body))]
	if bytes.IndexByte(body, '%') < 0 {
		return nil
	}
	type rewrite struct{ from, to string }
	rewrites := map[int]rewrite{} // by line
	var want []robotstxt.Rule
	for _, g := range parsed.Groups() {
		for _, r := range g.Rules {
			n := r
			if strings.Contains(r.Pattern, "%") {
				if to := decodeUnreserved(r.Pattern); !strings.EqualFold(to, r.Pattern) {
					rewrites[r.Line] = rewrite{r.Pattern, to}
					n.Pattern = to
				}
			}
			want = append(want, n)
		}
	}
	if len(rewrites) == 0 {
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
		if rw, ok := rewrites[line]; ok {
			// The pattern is the first occurrence of it after the key.
			sep := strings.IndexAny(l, ": \t")
			i := -1
			if sep >= 0 {
				i = strings.Index(l[sep+1:], rw.from)
			}
			if i < 0 {
				return nil
			}
			i += sep + 1
			l = l[:i] + rw.to + l[i+len(rw.from):]
		}
		b.WriteString(l)
		b.WriteString(text[end:next])
		text = text[next:]
	}
	normal := robotstxt.Parse([]byte(b.String()))
	var got []robotstxt.Rule
	for _, g := range normal.Groups() {
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
	written := make(map[int]string, len(rewrites))
	for line, rw := range rewrites {
		written[line] = rw.from
	}
	return &normalRules{normal, written}
}
