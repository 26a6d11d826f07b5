package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A file that shuts out a long list of crawlers, one group each, is the
// file whose pass over its user-agent lines costs the most; the summary
// of its tokens must still rule out most agents it does not name, or
// every new agent asked reads the whole file again (File.scope). With 100
// names of 4 to 15 letters, at most 40 % of 2,000 other names may pass:
// two bits a name of 256 leave about 29 % (64 bits let 92 % pass).
func TestAgentSummaryRulesOutMostUnnamed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	name := func() string {
		b := make([]byte, 4+rng.IntN(12))
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_0123456789"[rng.IntN(64)]
		}
		return string(b)
	}
	for round := 0; round < 20; round++ {
		var s agentSummary
		named := map[string]bool{}
		for len(named) < 100 {
			n := name()
			named[strings.ToLower(n)] = true
			s.add(n)
		}
		passed, asked := 0, 0
		for asked < 2000 {
			n := name()
			if named[strings.ToLower(n)] {
				continue
			}
			asked++
			if s.mayHold(n) {
				passed++
			}
		}
		if passed > asked*40/100 {
			t.Fatalf("round %d: %d of %d names not in a summary of 100 passed it", round, passed, asked)
		}
	}
}

// Tokens of no byte or one byte, and bytes that are no letter, hash as
// any other token: equal but for ASCII case, alike.
func TestAgentSummaryShortTokens(t *testing.T) {
	for _, tok := range []string{"", "a", "Z", "-", "\xff", "ab", "\x00\x80", "a\x80b"} {
		var s agentSummary
		s.add(tok)
		for _, asked := range []string{tok, asciiUpper(tok), asciiLower(tok)} {
			if !s.mayHold(asked) {
				t.Errorf("summary of %q rules out %q", tok, asked)
			}
		}
	}
}

// add adds token to s, as a pass over the file does.
func (s *agentSummary) add(token string) { s.addHash(agentHash(token)) }

// asciiUpper upper-cases the ASCII letters of s alone, as Google matches
// product tokens, leaving other bytes as they are.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 0x20
		}
	}
	return string(b)
}

// asciiLower lower-cases the ASCII letters of s alone.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return string(b)
}
