package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// equalFold, eight bytes at a time, says what comparing byte by byte with
// the agent lower-cased (ASCII letters only) says, for every token a file
// can have (a lower-cased product token) and names of the bytes around the
// letters and beyond ASCII; names it finds equal hash alike.
func TestEqualFoldAgainstBytes(t *testing.T) {
	alphabet := []byte("@AZ[`az{-_09\x7f\x80\xc1\xdaGgOo\r\x0d\x2d\x5f\x7f\x0d")
	naive := func(token, s string) bool {
		lower := []byte(s)
		for i, c := range lower {
			lower[i] = parse.LowerASCII(c)
		}
		return token == string(lower)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	word := func() string {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 50000 {
		s := word()
		// A token of the bytes product tokens are made of, often s's own.
		token := parse.AgentToken(s)
		if rng.IntN(2) == 0 {
			token = parse.AgentToken(strings.Map(func(r rune) rune {
				if c := byte(r); !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
					return rune("az-_"[rng.IntN(4)])
				}
				return r
			}, word()))
		}
		if rng.IntN(3) == 0 && len(token) > 0 {
			token = token[:rng.IntN(len(token))]
		}
		for _, name := range []string{s, token, strings.ToUpper(token), flipCase(rng, token), flipAny(rng, token)} {
			if got, want := equalFold(token, name), naive(token, name); got != want {
				t.Fatalf("equalFold(%q, %q) = %v, want %v", token, name, got, want)
			}
			if equalFold(token, name) && foldHash(token) != foldHash(name) {
				t.Fatalf("foldHash(%q) != foldHash(%q)", token, name)
			}
		}
	}
}

// flipCase returns s with some of its ASCII letters in the other case.
func flipCase(rng *rand.Rand, s string) string {
	b := []byte(s)
	for i, c := range b {
		if ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && rng.IntN(2) == 0 {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// flipAny returns s with one byte's case bit flipped, which makes another
// letter's case of a letter, and of '-' and '_' the bytes 0x0d and 0x7f.
func flipAny(rng *rand.Rand, s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	b[rng.IntN(len(b))] ^= 0x20
	return string(b)
}

// Names differing in one byte, or in the order of their bytes, hash
// apart: the hash reads every byte of names of every length up to 40.
func TestFoldHashReadsEveryByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const letters = "abcdefghijklmnopqrstuvwxyz-_"
	for n := 1; n <= 40; n++ {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = letters[rng.IntN(len(letters))]
			}
			i := rng.IntN(n)
			c := b[i]
			b2 := append([]byte(nil), b...)
			for b2[i] == c {
				b2[i] = letters[rng.IntN(len(letters))]
			}
			if foldHash(string(b)) == foldHash(string(b2)) {
				t.Fatalf("foldHash(%q) == foldHash(%q)", b, b2)
			}
		}
	}
}

// A file's product tokens are found by any agent name equal to one but
// for ASCII case, and by no other name, as a scan of them finds them: on
// files naming many agents, with names sharing long prefixes.
func TestLookupAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	stems := []string{"bot", "googlebot", "googlebot-image", "a", "ab", "abcdefgh", "abcdefghi", "x_y-z"}
	name := func() string {
		s := stems[rng.IntN(len(stems))]
		if rng.IntN(2) == 0 {
			s += strconv.Itoa(rng.IntN(50))
		}
		return s
	}
	for range 300 {
		var body strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			fmt.Fprintf(&body, "user-agent: %s\ndisallow: /%d\n", name(), n)
		}
		r := load([]byte(body.String()))
		r.Compile()
		for range 50 {
			agent := []byte(name())
			for i := range agent {
				if c := agent[i]; rng.IntN(3) == 0 && 'a' <= c && c <= 'z' {
					agent[i] = c - 'a' + 'A'
				}
			}
			want, wantSpecific := NoRules(), false
			for i := range r.tokens {
				if strings.EqualFold(r.tokens[i].name, string(agent)) {
					want, wantSpecific = &r.sets[r.tokens[i].set], true
				}
			}
			if got, specific := r.lookup(string(agent)); got != want || specific != wantSpecific {
				t.Fatalf("lookup(%q) = %p, %v, want %p, %v, in\n%s", agent, got, specific, want, wantSpecific, body.String())
			}
		}
	}
}
