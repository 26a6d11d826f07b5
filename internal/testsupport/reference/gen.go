package reference

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// A Chooser turns fuzz bytes into choices; it answers 0 once the bytes run
// out, so every input is a valid program.
type Chooser struct{ src []byte }

// NewChooser returns a chooser over src.
func NewChooser(src []byte) *Chooser { return &Chooser{src: src} }

// Pick returns a choice in [0, n).
func (c *Chooser) Pick(n int) int {
	if len(c.src) == 0 || n <= 1 {
		return 0
	}
	v := int(c.src[0])
	c.src = c.src[1:]
	return v % n
}

// From returns one of options.
func (c *Chooser) From(options []string) string { return options[c.Pick(len(options))] }

var (
	genKeys    = []string{"User-agent", "Allow", "Disallow", "Disallow", "Allow", "Disallow"}
	genOddKeys = []string{"user-agent", "USER-AGENT", "useragent", "user agent", "User-Agents",
		"allow", "disallow", "Disalow", "Disallowed", "Sitemap", "Crawl-delay", "foo", ""}
	genSeps      = []string{": ", ":", " : ", " ", "\t", ":\t", "  ", ": :"}
	genAgents    = []string{"*", "FooBot", "BarBot", "*", "FooBot", "* x", "*x", "foobot", "Foo Bar", "Foo-Bot_2", "", "googlebot/2.1", "é", "**", "*\t"}
	genPieces    = []string{"/", "a", "b", "*", "$", "ab", "/a", "/b"}
	genOddPieces = []string{"%61", "%c3%a9", "é", "index.html", "?", ".", "/index.htm", "\x00", " ", "/"}
	genEnds      = []string{"\n", "\n", "\r\n", "\r", "\n\n", "\r\r\n", " #c\n"}
	GenQAgent    = []string{"FooBot", "BarBot", "x", "FooBot", "foobot", "Foo", "", "*", "Foo Bar", "Foo-Bot_", "googlebot"}
	genHosts     = []string{"http://example.com", "", "http://example.com", "//h", "example.com", "http://h:8080"}
)

// GenPattern returns a rule pattern of pieces Google treats specially.
func GenPattern(c *Chooser) string {
	var sb strings.Builder
	if c.Pick(4) != 0 {
		sb.WriteByte('/')
	}
	for n := c.Pick(6); n > 0; n-- {
		if c.Pick(5) == 0 {
			sb.WriteString(c.From(genOddPieces))
		} else {
			sb.WriteString(c.From(genPieces))
		}
	}
	return sb.String()
}

// GenRobots builds a robots.txt file from the choices: mostly well-formed
// lines of the kinds Google treats specially, with typos, odd separators,
// comments, blank lines and mixed line endings.
func GenRobots(c *Chooser) []byte {
	var b bytes.Buffer
	if c.Pick(8) == 0 {
		b.WriteString("\xEF\xBB\xBF"[:1+c.Pick(3)])
	}
	lines := c.Pick(12)
	if c.Pick(4) == 0 {
		lines = 4 * c.Pick(40) // large groups, which are indexed
	}
	for n := lines; n > 0; n-- {
		key, sep := c.From(genKeys), ": "
		if c.Pick(4) == 0 {
			key = c.From(genOddKeys)
		}
		if c.Pick(4) == 0 {
			sep = c.From(genSeps)
		}
		var value string
		switch {
		case strings.HasPrefix(strings.ToLower(key), "user"):
			value = c.From(genAgents)
		case c.Pick(8) == 0:
			value = ""
		default:
			value = GenPattern(c)
		}
		if c.Pick(6) == 0 {
			b.WriteString(" ")
		}
		b.WriteString(key)
		b.WriteString(sep)
		b.WriteString(value)
		b.WriteString(c.From(genEnds))
	}
	return b.Bytes()
}

// GenURL returns a URL, absolute or not, perhaps with a fragment.
func GenURL(c *Chooser) string {
	url := c.From(genHosts) + GenPattern(c)
	if c.Pick(6) == 0 {
		url += "#" + GenPattern(c)
	}
	return url
}

// EachChooser calls do n times (a tenth as many with -short) with a
// Chooser over size fresh random bytes, from a fixed seed so that a
// failure repeats; i counts the calls.
func EachChooser(seed uint64, n, size int, do func(i int, c *Chooser)) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	if testing.Short() {
		n /= 10
	}
	src := make([]byte, size)
	for i := 0; i < n; i++ {
		for j := range src {
			src[j] = byte(rng.Uint32())
		}
		do(i, &Chooser{src: src})
	}
}
