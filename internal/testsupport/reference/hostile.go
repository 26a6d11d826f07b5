package reference

import (
	"math/rand/v2"
	"strings"
)

// Hostile rule sets: a site chooses both its rules and the URLs a crawler
// asks about, so it can try to make each query slow. Each family fills a
// file of at most the size given (robotstxt.DefaultMaxSize, for the
// benchmarks) with rules that the prefix index cannot rule out, and pairs
// it with paths built to defeat the matcher.

// A HostileFamily is a file generator and a path generator: Path(n) is a
// path of about n bytes that matches none of the rules, or as few as
// possible.
type HostileFamily struct {
	Name string
	File []byte
	Path func(n int) string
}

// fillRules returns a "*" group with rule(i) for i = 0, 1, ... until the
// next rule would pass size bytes.
func fillRules(size int, rule func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; ; i++ {
		line := rule(i) + "\n"
		if b.Len()+len(line) > size {
			return []byte(b.String())
		}
		b.WriteString(line)
	}
}

// tail3 spells i in three bytes from an alphabet of 40 that paths of
// filler never contain.
func tail3(i int) string {
	const alphabet = "bcdefghijklmnopqrstuvwxyzBCDEFGHIJKLMNOP"
	n := len(alphabet)
	return string([]byte{alphabet[i%n], alphabet[i/n%n], alphabet[i/(n*n)%n]})
}

// fillerPath returns "/" and n-1 bytes of 'a'.
func fillerPath(n int) string { return "/" + strings.Repeat("a", max(n-1, 0)) }

// mixedPath returns a path of n bytes that holds every byte of the rules'
// pieces, so that no byte filter rules them out, but none of their
// three-byte tails.
func mixedPath(n int) string {
	const unit = "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/B/C/D/E/F/G/H/I/J/K/L/M/N/O/P/%FF/"
	s := "/" + strings.Repeat(unit, n/len(unit)+1)
	return s[:max(n, 1)]
}

// HostileFamilies returns every family, with files of at most size bytes.
func HostileFamilies(size int) []HostileFamily {
	// Pairs of letters, the pieces of the wrong-order family: the path
	// holds every "low" pair before every "high" pair, and each rule wants
	// a high pair before a low one.
	var low, high []string
	for a := 'a'; a <= 'm'; a++ {
		for b := 'a'; b <= 'm'; b++ {
			low = append(low, string([]rune{a, b}))
			high = append(high, string([]rune{a + 13, b + 13}))
		}
	}
	rng := rand.New(rand.NewPCG(3, 5))
	chains := make([]string, 0, 40000)
	for range cap(chains) {
		var c strings.Builder
		c.WriteString("/")
		for range 8 {
			c.WriteString("*")
			c.WriteByte(byte('a' + rng.IntN(16)))
		}
		chains = append(chains, c.String())
	}
	shared := strings.Repeat("shared/prefix/", 14) // 196 bytes
	ff := strings.Repeat("\xff", 28)
	return []HostileFamily{
		{"star-tail", fillRules(size, func(i int) string { return "Disallow: /*" + tail3(i) }), mixedPath},
		{"star-tail-anchored", fillRules(size, func(i int) string { return "Disallow: /*" + tail3(i) + "$" }), mixedPath},
		{"star-tail-duplicate", fillRules(size, func(int) string { return "Disallow: /*bcd" }), mixedPath},
		{"two-stars", fillRules(size, func(i int) string { return "Disallow: /*a*" + tail3(i) }), mixedPath},
		{"wrong-order", fillRules(size, func(i int) string {
			return "Disallow: /*" + high[i%len(high)] + "*" + low[i/len(high)%len(low)]
		}), func(n int) string {
			head := "/" + strings.Join(low, "")
			tail := strings.Join(high, "")
			return head + strings.Repeat("A", max(n-len(head)-len(tail), 0)) + tail
		}},
		{"chains", fillRules(size, func(i int) string { return "Disallow: " + chains[i%len(chains)] }), func(n int) string {
			// Every letter occurs once, in an order few chains follow: a
			// failed chain would search the rest of the path for a letter.
			s := "/ponmlkjihgfedcba"
			return s + strings.Repeat("A", max(n-len(s), 0))
		}},
		{"middle-absent", fillRules(size, func(i int) string { return "Disallow: /*a*" + tail3(i) + "*z" }), func(n int) string {
			// The first and last pieces occur in order, a middle one never.
			s := mixedPath(n)
			return s[:max(len(s)-2, 1)] + "az"
		}},
		{"shared-long-prefix", fillRules(size, func(i int) string { return "Disallow: /" + shared + "*" + tail3(i) }), func(n int) string {
			return "/" + shared + strings.Repeat("a", max(n-len(shared)-1, 0))
		}},
		{"nested-prefixes", fillRules(size, func(i int) string { return "Disallow: /" + strings.Repeat("a", i) + "*b" }), fillerPath},
		{"non-ascii-star", fillRules(size, func(i int) string { return "Disallow: /*" + tail3(i) + ff }), mixedPath},
		{"non-ascii", fillRules(size, func(i int) string { return "Disallow: /" + tail3(i) + ff }), mixedPath},
	}
}
