package guard

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/crawlers"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// maxTokenLen bounds the product tokens compared: no crawler's name is
// longer, and a longer run is read as no name, so that a hostile header
// costs one pass over its bytes.
const maxTokenLen = 64

// fallbacks are the tokens a crawler obeys when the file names it
// nowhere, most specific first, as its operator documents them: Google's
// image, video and news crawlers obey Googlebot's group ("Google's common
// crawlers"), and Applebot obeys Googlebot's rules when the file names
// Applebot nowhere ("About Applebot").
var fallbacks = func() map[string]chain {
	m := map[string]chain{}
	for _, names := range [][]string{
		{"Googlebot-Image", "Googlebot"},
		{"Googlebot-Video", "Googlebot"},
		{"Googlebot-News", "Googlebot"},
		{"Applebot", "Googlebot"},
	} {
		c := chain{names: names}
		for _, n := range names {
			c.lower = append(c.lower, strings.ToLower(n))
		}
		m[c.lower[0]] = c
	}
	return m
}()

// A chain is the tokens a crawler obeys, most specific first, as given
// and lower-cased.
type chain struct{ names, lower []string }

// browserWords are the words of browsers' User-Agent headers (the
// engines, browsers, platforms and devices of the user-agents package's
// 952 headers, and a few more), lower-cased. A group of a file that names
// one of them does not make a browser a crawler: a file naming "Android"
// must not turn phones away.
var browserWords = setOf(
	"_nonfccs", "android", "ap", "applewebkit", "arm_", "barcelona", "bp", "brave", "build", "cc",
	"chrome", "chromium", "cph", "cpu", "crios", "cros", "ctr-l", "ddg", "dpi", "duckduckgo", "ecosia",
	"edg", "edga", "edge", "edgios", "edition", "en_us", "fban", "fbav", "firefox", "fxios", "gecko",
	"gsa", "honorlock", "instagram", "intel", "ipad", "iphone", "kftuwi", "khtml", "like", "linux",
	"lrx", "mac", "macintosh", "mi", "mobile", "moto", "mozilla", "mra", "msie", "nexus", "nt",
	"opd", "opera", "opm", "opr", "opt", "os", "panda", "pixel", "pn", "power", "pro", "qcom", "rv",
	"sa", "safari", "samsung", "samsungbrowser", "silk", "sm-a", "sm-g", "sm-s", "snapchat", "std-",
	"trident", "ubuntu", "ucbrowser", "version", "vivaldi", "win", "windows", "wow", "wv",
	"yabrowser", "zh-cn", "compatible",
)

// knownCrawlers are the product tokens crawlers send, lower-cased: the
// crawlers of the package's list (internal/crawlers) and those with
// fallbacks.
var knownCrawlers = func() map[string]bool {
	m := map[string]bool{}
	list, _, err := crawlers.List()
	if err != nil {
		panic(err) // the embedded list is checked by its tests
	}
	for _, e := range list {
		if e.Kind == crawlers.Crawler {
			m[strings.ToLower(e.Name)] = true
		}
	}
	for k := range fallbacks {
		m[k] = true
	}
	return m
}()

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// crawlerWords are the words a crawler's own name holds, lower-cased:
// Googlebot, Baiduspider, Screaming Frog SEO Spider's, Yahoo! Slurp.
var crawlerWords = []string{"bot", "crawl", "spider", "slurp", "scrap", "fetch", "archiver", "indexer"}

// looksLikeCrawler reports whether a lower-cased token names a crawler by
// its words: a crawler no list knows is still a crawler, to which the
// "*" group applies.
func looksLikeCrawler(lower []byte) bool {
	for _, w := range crawlerWords {
		if bytesContains(lower, w) {
			return true
		}
	}
	return false
}

func bytesContains(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

// identify returns the product token a User-Agent header names its
// crawler by, and the tokens it obeys, most specific first: of the
// header's tokens, the first that a group of the file names (by itself or
// by its fallbacks), else the first known crawler or token whose words
// name a crawler (see looksLikeCrawler); "" when it names none.
// named holds the lower-cased tokens the file's groups name. A token is a
// maximal run of token bytes, outside URLs; browser words are never a
// crawler. It allocates only for the token it returns.
func identify(ua string, named map[string]bool) (token string, obeys []string) {
	var buf [maxTokenLen]byte
	firstKnown := ""
	for i := 0; i < len(ua); {
		if !parse.IsTokenByte(ua[i]) {
			i++
			continue
		}
		start := i
		for i < len(ua) && parse.IsTokenByte(ua[i]) {
			i++
		}
		tok := ua[start:i]
		if i+2 < len(ua) && ua[i] == ':' && ua[i+1] == '/' && ua[i+2] == '/' {
			// A URL: its host and path name no crawler (a crawler's
			// own page, such as https://openai.com/gptbot, would).
			for i < len(ua) && ua[i] != ' ' && ua[i] != ';' && ua[i] != ')' {
				i++
			}
			continue
		}
		if len(tok) > maxTokenLen || len(tok) < 2 {
			continue
		}
		lower := buf[:len(tok)]
		for j := 0; j < len(tok); j++ {
			c := tok[j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[j] = c
		}
		if browserWords[string(lower)] {
			continue
		}
		if c, ok := fallbacks[string(lower)]; ok {
			for _, f := range c.lower {
				if named[f] {
					return tok, c.names
				}
			}
		}
		if named[string(lower)] {
			return tok, []string{tok}
		}
		if firstKnown == "" && (knownCrawlers[string(lower)] || looksLikeCrawler(lower)) {
			firstKnown = tok
		}
	}
	if firstKnown == "" {
		return "", nil
	}
	if c, ok := fallbacks[strings.ToLower(firstKnown)]; ok {
		return firstKnown, c.names
	}
	return firstKnown, []string{firstKnown}
}
