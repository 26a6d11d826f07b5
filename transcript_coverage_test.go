package robotstxt_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// TestTranscriptCoverage checks that the files and queries whose answers
// are recorded reach the corners they are meant to, so that a change of
// the generator cannot quietly drop one: each corner must turn up in the
// first files, which every default run compares.
func TestTranscriptCoverage(t *testing.T) {
	if transcriptUnderRace {
		t.Skip("the generator is sequential and deterministic: nothing for the race detector here, and the run without it checks the same")
	}
	const files = 5000
	corners := []struct {
		name string
		min  int
		in   func(f trGenFile) bool
	}{
		{"a whole byte-order mark", 250, func(f trGenFile) bool { return bytes.HasPrefix(f.body, []byte("\xEF\xBB\xBF")) }},
		{"part of a byte-order mark", 150, func(f trGenFile) bool {
			return bytes.HasPrefix(f.body, []byte("\xEF")) && !bytes.HasPrefix(f.body, []byte("\xEF\xBB\xBF"))
		}},
		{"a NUL byte", 1000, func(f trGenFile) bool { return bytes.IndexByte(f.body, 0) >= 0 }},
		{"a CR line end", 1500, func(f trGenFile) bool { return bytes.IndexByte(f.body, '\r') >= 0 }},
		{"a line past the 16,663-byte cap", 20, func(f trGenFile) bool { return longestLine(f.body) > trMaxLine }},
		{"a line just under the cap", 10, func(f trGenFile) bool { n := longestLine(f.body); return n > trMaxLine-8 && n <= trMaxLine }},
		{"over 500 KiB", 1, func(f trGenFile) bool { return len(f.body) > robotstxt.DefaultMaxSize }},
		{"over 1,000 rules", 20, func(f trGenFile) bool { return bytes.Count(f.body, []byte("llow")) > 1000 }},
		{"an accepted typo of disallow", 400, func(f trGenFile) bool {
			return containsAny(f.body, "dissallow", "dissalow", "disalow", "diasllow", "disallaw")
		}},
		{"a missing colon", 300, func(f trGenFile) bool {
			return containsAny(f.body, "Disallow\t", "Allow\t", "User-agent\t", "Disallow /", "Allow /")
		}},
		{"a wildcard", 3000, func(f trGenFile) bool { return bytes.IndexByte(f.body, '*') >= 0 }},
		{"a $ anchor", 1500, func(f trGenFile) bool {
			return bytes.Contains(f.body, []byte("$\n")) || bytes.Contains(f.body, []byte("$\r"))
		}},
		{"a lower-case escape", 600, func(f trGenFile) bool { return containsAny(f.body, "%2f", "%e3", "%c3", "%3d") }},
		{"a raw byte >= 0x80", 1500, func(f trGenFile) bool { return bytes.ContainsFunc(f.body, func(r rune) bool { return r >= 0x80 }) }},
		{"index.htm", 700, func(f trGenFile) bool { return bytes.Contains(f.body, []byte("index.htm")) }},
		{"user-agent * with text after it", 300, func(f trGenFile) bool { return containsAny(f.body, ": * x", ":* x", ": *\tx") }},
		{"a query with the empty agent", 2000, func(f trGenFile) bool { return anyQuery(f, func(q trGenQuery) bool { return q.agent == "" }) }},
		{"a query with an agent that is no token", 2000, func(f trGenFile) bool {
			return anyQuery(f, func(q trGenQuery) bool { return strings.ContainsAny(q.agent, " /*") })
		}},
		{"a URL whose path reduction is unusual", 2000, func(f trGenFile) bool {
			return anyQuery(f, func(q trGenQuery) bool { return !strings.Contains(q.url, "://") })
		}},
		{"a URL that changes in wire form", 2000, func(f trGenFile) bool {
			return anyQuery(f, func(q trGenQuery) bool { return trWireForm(q.url) != q.url })
		}},
	}
	counts := make([]int, len(corners))
	for i := range files {
		f := trGenFileAt(i)
		for j, c := range corners {
			if c.in(f) {
				counts[j]++
			}
		}
	}
	for j, c := range corners {
		t.Logf("%5d of %d files: %s", counts[j], files, c.name)
		if counts[j] < c.min {
			t.Errorf("%d of the first %d generated files have %s, want at least %d", counts[j], files, c.name, c.min)
		}
	}
}

func longestLine(b []byte) int {
	n := 0
	for _, l := range bytes.FieldsFunc(b, func(r rune) bool { return r == '\n' || r == '\r' }) {
		n = max(n, len(l))
	}
	return n
}

func containsAny(b []byte, subs ...string) bool {
	for _, s := range subs {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

func anyQuery(f trGenFile, ok func(trGenQuery) bool) bool {
	for _, q := range f.queries {
		if ok(q) {
			return true
		}
	}
	return false
}
