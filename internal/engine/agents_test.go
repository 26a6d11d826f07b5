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
// the agent lower-cased (ASCII letters only) says, on strings of the bytes
// around the letters and beyond ASCII; names it finds equal hash alike.
func TestEqualFoldAgainstBytes(t *testing.T) {
	alphabet := []byte("@AZ[`az{-_09\x7f\x80\xc1\xdaGgOo")
	naive := func(token, s string) bool {
		lower := []byte(s)
		for i, c := range lower {
			lower[i] = parse.LowerASCII(c)
		}
		return token == string(lower)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	word := func() string {
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 20000 {
		s := word()
		lowered := []byte(s)
		for i, c := range lowered {
			lowered[i] = parse.LowerASCII(c)
		}
		token := string(lowered) // often equal
		if rng.IntN(2) == 0 {
			token = word()
		}
		if rng.IntN(3) == 0 && len(token) > 0 {
			token = token[:rng.IntN(len(token))]
		}
		if got, want := equalFold(token, s), naive(token, s); got != want {
			t.Fatalf("equalFold(%q, %q) = %v, want %v", token, s, got, want)
		}
		if equalFold(token, s) && foldHash(token) != foldHash(s) {
			t.Fatalf("foldHash(%q) != foldHash(%q)", token, s)
		}
	}
}

// A file's product tokens are found by any agent name equal to one but
// for ASCII case, and by no other name, as a scan of them finds them: on
// files naming many agents, with names sharing long prefixes.
func TestFindTokenAgainstScan(t *testing.T) {
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
			var want *agentToken
			for i := range r.tokens {
				if strings.EqualFold(r.tokens[i].name, string(agent)) {
					want = &r.tokens[i]
				}
			}
			if got := r.findToken(string(agent)); got != want {
				t.Fatalf("findToken(%q) = %v, want %v, in\n%s", agent, got, want, body.String())
			}
		}
	}
}
