package engine

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// streamVerdictTwin fails t when streamVerdict and the compiled form answer a
// question differently. Google's matcher streams (RobotsMatcher in
// robots.cc answers while parsing), so both must decide as it does.
// It asks the stream twice: as it streams, and with every wildcard rule
// first tested against the path's bytes and pairs (pathpairs.go), which
// must rule out only rules that cannot match.
func streamVerdictTwin(t *testing.T, body []byte, compiled *File, agent, url string) {
	t.Helper()
	for _, after := range []int{pairsAfter, 0} {
		got, ok := streamVerdictPairsAfter(string(body), agent, url, after)
		if !ok {
			continue // over budget: the compiled form answers
		}
		compiled.Compile() // Rules alone would compile this agent's set alone (scoped.go)
		rs, _ := compiled.Rules(agent)
		if want := rs.Verdict(url); got != want {
			t.Fatalf("streamed (%q, %q), pairs after %d = %v; compiled = %v\nrobots.txt: %q", agent, url, after, got, want, body)
		}
	}
}

// The streamed first question decides as the compiled form, on every
// query of the corpus (not only the first one asked of each file).
func TestStreamMatchesCompiled(t *testing.T) {
	_, files := loadCorpus(t)
	n := 0
	for _, f := range files {
		r := load(f)
		for _, q := range crawlerQueries([][]byte{f}) {
			streamVerdictTwin(t, f, r, q.agent, q.url)
			n++
		}
	}
	t.Logf("%d corpus queries agree", n)
}

// The stream decides as the compiled form on the corpus rewritten with
// other line ends (CR alone, CR LF, LF CR: an LF and an empty line ended by
// CR) and with white space before every key: the line filter and the
// passed-over disallow lines must find the same lines and numbers.
func TestStreamMatchesCompiledRewritten(t *testing.T) {
	_, files := loadCorpus(t)
	rewrites := []struct {
		name string
		do   func(lf []byte) []byte
	}{
		{"CR", func(lf []byte) []byte { return bytes.ReplaceAll(lf, []byte("\n"), []byte("\r")) }},
		{"CR LF", func(lf []byte) []byte { return bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")) }},
		{"LF CR", func(lf []byte) []byte { return bytes.ReplaceAll(lf, []byte("\n"), []byte("\n\r")) }},
		{"indented", func(lf []byte) []byte { return bytes.ReplaceAll(lf, []byte("\n"), []byte("\n \v\f\t")) }},
	}
	n := 0
	for i, f := range files {
		if raceSkip(i) {
			continue
		}
		agents, urls := corpus.Queries(f)
		lf := bytes.ReplaceAll(f, []byte("\r\n"), []byte("\n"))
		for _, rw := range rewrites {
			body := rw.do(lf)
			r := load(body)
			for _, a := range agents {
				for _, u := range urls {
					streamVerdictTwin(t, body, r, a, u)
					n++
				}
			}
		}
	}
	t.Logf("%d questions on rewritten corpus files agree", n)
}

// Table cases for what the stream must get right, each from Google's
// matcher (robots.cc) or RFC 9309 section 2.2.2.
func TestStreamCases(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
	}{
		{"longest match decides (RFC 9309 2.2.2)", "user-agent: *\ndisallow: /a\nallow: /a/b\n", "x", "/a/b/c"},
		{"allow wins a tie (RFC 9309 2.2.2)", "user-agent: *\ndisallow: /a\nallow: /a\n", "x", "/a"},
		{"first line on a tie of the same kind", "user-agent: *\ndisallow: /a*\ndisallow: /a$\n", "x", "/a"},
		{"a group naming the agent hides *", "user-agent: *\ndisallow: /\nuser-agent: foo\nallow: /x\n", "FOO", "/y"},
		{"a group naming the agent without rules hides *", "user-agent: foo\nuser-agent: *\ndisallow: /\n", "foo", "/y"},
		{"groups naming the agent merge", "user-agent: foo\ndisallow: /a\nuser-agent: bar\ndisallow: /\nuser-agent: foo\nallow: /a/b\n", "foo", "/a/b"},
		{"index.htm allows its directory (Google)", "user-agent: *\ndisallow: /\nallow: /d/index.html\n", "x", "/d/"},
		{"escaped pattern", "user-agent: *\ndisallow: /é\n", "x", "/%C3%A9x"},
		{"empty disallow names its line and allows", "user-agent: *\ndisallow:\n", "x", "/"},
		{"rules before any group are ignored", "disallow: /\nuser-agent: *\nallow: /a\n", "x", "/b"},
		{"wildcard and anchor", "user-agent: *\ndisallow: /*.pdf$\n", "x", "/x/y.pdf"},
		{"star agent with trailing words", "user-agent: * foo\ndisallow: /\n", "foo", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			streamVerdictTwin(t, []byte(tt.body), load([]byte(tt.body)), tt.agent, tt.url)
			if _, ok := streamVerdict(tt.body, tt.agent, tt.url); !ok {
				t.Fatal("streamVerdict gave up on a small file")
			}
		})
	}
}

// A question that would cost more than the budget gives up, and the
// compiled form answers it. The rules hold only bytes and pairs of the
// path, so that no rule is ruled out before it is matched.
func TestStreamBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := range 2000 {
		b.WriteString("disallow: /*b" + strings.Repeat("a", 1+i%7) + "q$\n")
	}
	body := b.String()
	// Each rule's bytes, pairs and last byte are the path's, in an order
	// they allow, but none matches: the rules' 'b' is followed by 1 to 7
	// a's and the 'q', the path's by 1,001 a's.
	url := "/ba" + strings.Repeat("a", 1000) + "q"
	if _, ok := streamVerdict(body, "x", url); ok {
		t.Fatal("streamVerdict matched 2,000 wildcard rules against a 1 KB path")
	}
	r := load([]byte(body))
	if !r.Allowed("x", url) {
		t.Fatal("the compiled form disallowed a path no rule matches")
	}
}

// Streaming the first question allocates nothing.
func TestStreamDoesNotAllocate(t *testing.T) {
	body := "user-agent: *\ndisallow: /é\nallow: /d/index.html\ndisallow: /*.pdf$\n"
	if n := testing.AllocsPerRun(20, func() { streamVerdict(body, "x", "https://a.example/d/%c3%a9") }); n != 0 {
		t.Fatalf("streamVerdict allocated %v times", n)
	}
}

// Pieces of the corner cases the stream's shortcuts must get right: the
// line filter (keys after every kind of white space, keys that only look
// like disallow), the passed-over disallow lines (values that stop at
// '#', NUL, '%', '*', '$', white space or the line cap), line ends of
// every kind, and escapes.
var (
	cornerGoodKeys = []string{"user-agent", "allow", "disallow", "disallow", "Disallow"}
	cornerLead     = []string{"", "", " ", "\t", "\v", "\f", " \t\v\f", "\x00", "#", "\xEF\xBB\xBF"}
	cornerKeys     = []string{"user-agent", "User-Agent", "useragent", "user agent", "allow", "Allow", "disallow", "DISALLOW", "Disallow", "disallow", "Disallowed", "disallowx", "disalow", "dissallow", "disallaw", "diasllow", "dis allow", "dis#allow", "dis\x00allow", "disallow#", "sitemap", "crawl-delay", "u", "d", "a", "x", "", "disallo", "allowed", "user-agents"}
	cornerSeps     = []string{":", ":", ": ", " :", " : ", "\t:\t", "\v:\f", "\f:\v", " ", "\t", "", "::", ":#", ": #", ":\x00", "\v", "\f"}
	cornerAgents   = []string{"*", "* foo", "*foo", "*\tfoo", "*\v", "foo", "FOO/1.0", "foo bar", "", "foo\x00x", "f#oo", "123", "fo-o_", "Foo\tBar", "é", "foo*", "**", "bar", "Foo"}
	cornerBits     = []string{"/", "/", "a", "b", "/a", "/b", "*", "$", "%", "%2f", "%2F", "%c3%a9", "%C3%A9", "é", "\xff", "#", "\x00", " ", "\v", "\t", "index.htm", "/index.html", "/index.htm", "?", ";", "=", "%a", "%zz", "~", "\x7f", "\r"}
	cornerEnds     = []string{"\n", "\n", "\r\n", "\r", "\r\r\n", "\n\r", "\r\n\n", "\r \n", " \n", "\t\r\n", "#x\r\n", "\x00\r\n", "\r\r", ""}
	cornerQAgent   = []string{"foo", "FOO", "Foo", "", "*", "fo-o_", "x", "foo bar", "bar", "é"}
	cornerHosts    = []string{"", "http://h", "https://h:1", "//h", "h", "http://h?q", "http://h#f", "http://h;p"}
	cornerTails    = []string{"", "", "#", "#/a", "?", "?a=b", ";", ";x", "?#"}
)

// genCornerPattern returns a rule value or URL path made of cornerBits,
// sometimes padded to length pad with 'a' bytes.
func genCornerPattern(c *reference.Chooser, pad int) string {
	var sb strings.Builder
	if c.Pick(5) != 0 {
		sb.WriteByte('/')
	}
	for n := c.Pick(6); n > 0; n-- {
		sb.WriteString(c.From(cornerBits))
		if pad > 0 && c.Pick(4) == 0 {
			sb.WriteString(strings.Repeat("a", pad))
			pad = 0
		}
	}
	return sb.String()
}

// A cornerFile is a generated file with what its questions draw on.
type cornerFile struct {
	body   []byte
	agent  string   // the agent its groups are aimed at
	values []string // the values of its lines, as written
	pad    int      // the length of the long runs in its values, or 0
}

// genCornerFile builds a file aimed at the stream's shortcuts. Some rule
// values are placed so that they cross parse.MaxLineBytes.
func genCornerFile(c *reference.Chooser) cornerFile {
	var b bytes.Buffer
	if c.Pick(10) == 0 {
		b.WriteString("\xEF\xBB\xBF"[:1+c.Pick(3)])
	}
	f := cornerFile{agent: c.From(cornerQAgent)}
	// A long run that values and paths share, so that long rules can
	// match long paths.
	switch c.Pick(6) {
	case 0:
		f.pad = 2100 + c.Pick(40)
	case 1:
		f.pad = 1020 + c.Pick(10)
	}
	if c.Pick(2) == 0 {
		// Most files open with a group that applies.
		b.WriteString("user-agent: " + []string{"*", f.agent}[c.Pick(2)] + "\n")
	}
	for n := 1 + c.Pick(14); n > 0; n-- {
		lead, key, sep := "", c.From(cornerGoodKeys), ": "
		if c.Pick(3) == 0 {
			lead, key, sep = c.From(cornerLead), c.From(cornerKeys), c.From(cornerSeps)
		}
		var value string
		if strings.HasPrefix(strings.ToLower(key), "user") {
			value = c.From(cornerAgents)
			if c.Pick(3) == 0 {
				value = f.agent
			}
		} else {
			value = genCornerPattern(c, f.pad)
		}
		line := lead + key + sep
		if c.Pick(8) == 0 {
			// The value crosses the line cap, or starts near it.
			line += strings.Repeat(" ", c.Pick(3))
			fill := parse.MaxLineBytes - len(line) - 4 + c.Pick(8)
			if fill > 0 {
				value = "/" + strings.Repeat("a", fill) + value
			}
		}
		f.values = append(f.values, value)
		b.WriteString(line)
		b.WriteString(value)
		b.WriteString(c.From(cornerEnds))
	}
	f.body = b.Bytes()
	return f
}

// genCornerURL builds a URL to ask of f: often one a rule of f may
// match, sometimes with a path longer than 2 KiB.
func genCornerURL(c *reference.Chooser, f *cornerFile) string {
	var url string
	if c.Pick(2) == 0 {
		url = c.From(cornerHosts)
	}
	switch c.Pick(6) {
	case 0:
	case 1, 2, 3:
		// A value with its wildcards filled in, or cut short, and more
		// bits after it.
		v := f.values[c.Pick(len(f.values))]
		v = strings.NewReplacer("*", c.From(cornerBits), "$", "").Replace(v)
		if len(v) > 0 && c.Pick(4) == 0 {
			v = v[:c.Pick(len(v))]
		}
		tail := genCornerPattern(c, 0)
		url += v + tail[:c.Pick(len(tail)+1)]
	default:
		path := genCornerPattern(c, f.pad)
		if c.Pick(10) == 0 {
			path = "/" + strings.Repeat("a", parse.MaxLineBytes-8+c.Pick(16)) + path
		}
		url += path
	}
	return url + c.From(cornerTails)
}

// genCornerAgent returns the agent to ask f about: mostly the one it is
// aimed at.
func genCornerAgent(c *reference.Chooser, f *cornerFile) string {
	if c.Pick(3) == 0 {
		return c.From(cornerQAgent)
	}
	return f.agent
}

// The stream answers as the compiled form on files aimed at its
// shortcuts, allocates nothing for paths that fit 2 KiB in wire form, and
// when it gives up (ok false) the compiled form still answers.
func TestStreamCorners(t *testing.T) {
	asked, gaveUp, decided := 0, 0, 0
	reference.EachChooser(7, raceShare(8000), 512, func(i int, c *reference.Chooser) {
		f := genCornerFile(c)
		body, agent, url := f.body, genCornerAgent(c, &f), genCornerURL(c, &f)
		v, ok := streamVerdict(string(body), agent, url)
		if !ok {
			gaveUp++
		} else if v.Rule.Line > 0 {
			decided++
		}
		r := load(body)
		compareWithReference(t, body, reference.New(body), r, agent, url)
		streamVerdictTwin(t, body, r, agent, url)
		if i%16 == 0 {
			if _, n, _ := findPath(url); n <= pathBufSize {
				s := string(body)
				if a := testing.AllocsPerRun(1, func() { streamVerdict(s, agent, url) }); a != 0 {
					t.Fatalf("streamVerdict(%q, %q) allocated %v times\nrobots.txt: %q", agent, url, a, body)
				}
			}
		}
		asked++
	})
	t.Logf("%d questions: %d decided by a rule, %d gave up to the compiled form", asked, decided, gaveUp)
}

// The stream answers as Google's library on files aimed at its
// shortcuts (see TestStreamCorners): Allowed and the matching line, for
// every question, not only the first ones of a file.
func TestOracleStreamCorners(t *testing.T) {
	oracle := os.Getenv(reference.OracleEnv)
	if oracle == "" {
		t.Skipf("%s is not set: no Google oracle to compare with", reference.OracleEnv)
	}
	total, streamed := 0, 0
	reference.EachChooser(13, 1500, 1024, func(_ int, c *reference.Chooser) {
		f := genCornerFile(c)
		var qs []reference.Query
		for range 12 {
			if q := (reference.Query{Agent: genCornerAgent(c, &f), URL: genCornerURL(c, &f)}); reference.Usable(q) {
				qs = append(qs, q)
			}
		}
		if len(qs) == 0 {
			return
		}
		for _, want := range reference.AskOracle(t, oracle, f.body, qs) {
			total++
			// As it streams, and with the path's pairs from the first
			// wildcard rule on.
			for _, after := range []int{pairsAfter, 0} {
				v, ok := streamVerdictPairsAfter(string(f.body), want.Agent, want.URL, after)
				if !ok {
					continue
				}
				streamed++
				if v.Allowed != want.Allowed || v.Rule.Line != want.Line {
					t.Errorf("streamed (%q, %q), pairs after %d = %v line %d; Google's library says %v line %d\nrobots.txt: %q",
						want.Agent, want.URL, after, v.Allowed, v.Rule.Line, want.Allowed, want.Line, f.body)
				}
			}
		}
	})
	t.Logf("%d of %d answers streamed and compared with Google's library (%d questions, each asked twice)", streamed, 2*total, total)
}

// The stream's limits, on both sides of each: a pattern whose wire form
// fills half the stack buffer (an escaped pattern, a directory derived
// from an index.htm allow) and the wildcard budget. Within them the
// stream answers; past them it gives up and the compiled form answers,
// alike.
func TestStreamLimits(t *testing.T) {
	half := pathBufSize / 2
	escaped := func(wire int) string { // "/", "é"s, then ASCII: wire bytes long
		n := (wire - 1) / 6
		return "/" + strings.Repeat("é", n) + strings.Repeat("x", wire-1-6*n)
	}
	derived := func(dir int) string { // an allow whose directory is dir bytes long
		return "/*" + strings.Repeat("a", dir-3) + "/index.html"
	}
	// Rules of the path's bytes, pairs and last byte, in an order the
	// path's bytes allow, which the path's pairs do not rule out but
	// which do not match it (its last three bytes are "aab").
	budgetFile := func(rules int) string {
		return "user-agent: *\n" + strings.Repeat("disallow: /*bab$\n", rules)
	}
	// Each wildcard rule costs its path and pattern: 1018 + 6 bytes; once
	// the path's pairs are read (after pairsAfter), they cost as one rule.
	budgetPath := "/ab" + strings.Repeat("a", 1014) + "b"
	// The rules ruled out are asked with a path of one 'b', at its end.
	ruledOutPath := "/" + strings.Repeat("a", 1018) + "b"
	tests := []struct {
		name, body, url string
		streams         bool
		line            int // the deciding line
	}{
		{"escaped pattern fills half the buffer", "user-agent: *\ndisallow: " + escaped(half) + "\n", escaped(half), true, 2},
		{"escaped pattern past half the buffer", "user-agent: *\ndisallow: " + escaped(half+1) + "\n", escaped(half + 1), false, 2},
		{"derived pattern fills half the buffer", "user-agent: *\ndisallow: /\nallow: " + derived(half-1) + "\n", "/x" + strings.Repeat("a", half-4) + "/", true, 3},
		{"derived pattern past half the buffer", "user-agent: *\ndisallow: /\nallow: " + derived(half) + "\n", "/x" + strings.Repeat("a", half-3) + "/", false, 3},
		{"wildcards spend the budget", budgetFile(streamWildBudget/1024 - 1), budgetPath, true, 0},
		{"wildcards overspend the budget", budgetFile(streamWildBudget / 1024), budgetPath, false, 0},
		{"wildcards ruled out by the path's pairs cost nothing", "user-agent: *\n" + strings.Repeat("disallow: /*ba\n", 100000), ruledOutPath, true, 0},
		{"wildcards ruled out by the path's bytes cost nothing", "user-agent: *\n" + strings.Repeat("disallow: /*q\n", 100000), ruledOutPath, true, 0},
		{"wildcards ruled out by the order of the path's bytes cost nothing", "user-agent: *\n" + strings.Repeat("disallow: /*b*a\n", 100000), ruledOutPath, true, 0},
		{"plain patterns cost no budget", "user-agent: *\n" + strings.Repeat("disallow: /b\n", 10000), ruledOutPath, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := streamVerdict(tt.body, "x", tt.url)
			if ok != tt.streams {
				t.Fatalf("streamVerdict ok = %v, want %v", ok, tt.streams)
			}
			compiled := load([]byte(tt.body))
			rs, _ := compiled.Rules("x")
			want := rs.Verdict(tt.url)
			if got := load([]byte(tt.body)).Explain("x", tt.url); got != want {
				t.Fatalf("first Explain = %v; compiled = %v", got, want)
			}
			streamVerdictTwin(t, []byte(tt.body), compiled, "x", tt.url)
			if want.Rule.Line != tt.line {
				t.Fatalf("line %d decided (%v), want line %d", want.Rule.Line, want, tt.line)
			}
		})
	}
}

// Corners where the stream's shortcuts (the line filter, passed-over
// disallow lines, the line cap) meet Google's parser. Each answer is
// Google's library's (RobotsMatcher::OneAgentAllowedByRobots and
// matching_line, robots.cc), checked again when ROBOTSTXT_ORACLE is set;
// the stream and the compiled form must both give it.
func TestStreamGoogleCases(t *testing.T) {
	const lineCap = parse.MaxLineBytes
	long := strings.Repeat("a", lineCap-11) // "disallow: /" and this fill the line cap
	tests := []struct {
		name, body, agent, url string
		allowed                bool
		line                   int
	}{
		{"CR alone ends lines", "user-agent: *\rdisallow: /a\r", "x", "/a", false, 2},
		{"CR LF inside passed-over lines", "user-agent: *\r\ndisallow: /b\r\ndisallow: /a\r\n", "x", "/a", false, 3},
		{"CR LF, lone LF and lone CR mixed", "user-agent: *\r\n\rdisallow: /b\n\rdisallow: /a\r\r\n", "x", "/a", false, 5},
		{"partial byte order mark", "\xEF\xBBuser-agent: *\ndisallow: /a\n", "x", "/a", false, 2},
		{"byte order mark inside the file is a byte", "user-agent: *\n\xEF\xBB\xBFdisallow: /a\n", "x", "/a", true, 0},
		{"a key that starts with disallow", "user-agent: *\nDisallowed: /a\n", "x", "/a", false, 2},
		{"misspelt disallow", "user-agent: *\ndisalow: /a\n", "x", "/a", false, 2},
		{"vertical tab and form feed around key and colon", "user-agent: *\n\v\fdisallow\v:\f/a\n", "x", "/a", false, 2},
		{"missing colon", "user-agent: *\ndisallow /a\n", "x", "/a", false, 2},
		{"missing colon with three tokens", "user-agent: *\ndisallow /a b\n", "x", "/a", true, 0},
		{"NUL ends the value", "user-agent: *\ndisallow: /a\x00b\n", "x", "/ax", false, 2},
		{"'#' in the key", "user-agent: *\ndis#allow: /a\n", "x", "/a", true, 0},
		{"'#' ends the value", "user-agent: *\ndisallow: /a#b\n", "x", "/a", false, 2},
		{"space inside a value stays", "user-agent: *\ndisallow: /a b\n", "x", "/a b", false, 2},
		{"space inside a value is not %20", "user-agent: *\ndisallow: /a b\n", "x", "/a%20b", true, 0},
		{"value cut at the line cap matches", "user-agent: *\ndisallow: /" + long + "bc\n", "x", "/" + long + "b", false, 2},
		{"value cut at the line cap, path differs past it", "user-agent: *\ndisallow: /" + long + "b\n", "x", "/" + long + "c", false, 2},
		{"wildcard value cut at the line cap", "user-agent: *\ndisallow: /*" + long[1:] + "bc\n", "x", "/x" + long[1:] + "z", false, 2},
		{"anchor past the line cap is dropped", "user-agent: *\ndisallow: /*" + long[1:] + "$\n", "x", "/x" + long[1:] + "z", false, 2},
		{"anchor within the line cap", "user-agent: *\ndisallow: /*" + long[2:] + "$\n", "x", "/x" + long[2:] + "z", true, 0},
		{"key past the line cap", "user-agent: *\n" + strings.Repeat(" ", lineCap) + "disallow: /a\n", "x", "/a", true, 0},
		{"'*' followed by a letter is no global agent", "user-agent: *bot\ndisallow: /a\n", "x", "/a", true, 0},
		{"'*' followed by a tab is global", "user-agent: *\tbot\ndisallow: /a\n", "x", "/a", false, 2},
		{"an empty product token names the empty agent", "user-agent: 123\ndisallow: /a\n", "", "/a", false, 2},
		{"groups naming the agent merge", "user-agent: foo\ndisallow: /a\nuser-agent: *\ndisallow: /\nuser-agent: foo\nallow: /a\n", "foo", "/a", true, 6},
		{"rules before any group", "disallow: /a\nuser-agent: *\n", "x", "/a", true, 0},
		{"index.html with '$'", "user-agent: *\ndisallow: /\nallow: /d/index.html$\n", "x", "/d/", true, 3},
		{"index.htm after '*'", "user-agent: *\ndisallow: /\nallow: /*/index.htm\n", "x", "/d/", true, 3},
		{"index.htm under an escaped directory", "user-agent: *\ndisallow: /\nallow: /é/index.htm\n", "x", "/%c3%a9/", true, 3},
		{"lower-case escapes in pattern and URL", "user-agent: *\ndisallow: /%e9\n", "x", "/%e9x", false, 2},
		{"query kept, fragment dropped", "user-agent: *\ndisallow: /a?b\n", "x", "http://h/a?b#c", false, 2},
		{"parameters kept", "user-agent: *\ndisallow: /a;b\n", "x", "http://h/a;b", false, 2},
		{"URL without a path", "user-agent: *\ndisallow: /?\n", "x", "http://h?q", false, 2},
		{"'$' inside a pattern is a byte", "user-agent: *\ndisallow: /a$b\n", "x", "/a$b", false, 2},
		{"empty allow beats empty disallow", "user-agent: *\ndisallow:\nallow:\n", "x", "/", true, 3},
	}
	oracle := os.Getenv(reference.OracleEnv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := streamVerdict(tt.body, tt.agent, tt.url)
			if !ok {
				t.Fatal("streamVerdict gave up")
			}
			if v.Allowed != tt.allowed || v.Rule.Line != tt.line {
				t.Errorf("streamed: allowed %v line %d; Google: allowed %v line %d", v.Allowed, v.Rule.Line, tt.allowed, tt.line)
			}
			streamVerdictTwin(t, []byte(tt.body), load([]byte(tt.body)), tt.agent, tt.url)
			if oracle != "" {
				got := reference.AskOracle(t, oracle, []byte(tt.body), []reference.Query{{Agent: tt.agent, URL: tt.url}})[0]
				if got.Allowed != tt.allowed || got.Line != tt.line {
					t.Errorf("Google's library now says allowed %v line %d", got.Allowed, got.Line)
				}
			}
		})
	}
}

// The stream allocates nothing while the URL's path fits pathBufSize
// bytes in wire form, up to the last byte, with the longest pattern it
// escapes on the stack.
func TestStreamDoesNotAllocateAtLimits(t *testing.T) {
	half := pathBufSize / 2
	pattern := "/" + strings.Repeat("é", (half-1)/6) + strings.Repeat("x", (half-1)%6) // half bytes once escaped
	body := "user-agent: *\ndisallow: " + pattern + "\nallow: /*/index.html\n"
	for _, url := range []string{
		"https://a.example" + pattern + strings.Repeat("y", pathBufSize-half),                        // the path fills the buffer
		"https://a.example?" + strings.Repeat("%c3", 600) + strings.Repeat("z", pathBufSize-2-3*600), // "/" added, escapes upper-cased
		"/" + strings.Repeat("é", (pathBufSize-1)/6) + strings.Repeat("z", (pathBufSize-1)%6),        // escaped to the last byte
	} {
		if _, n, _ := findPath(url); n != pathBufSize {
			t.Fatalf("the path of %.40q… is %d bytes in wire form, want %d", url, n, pathBufSize)
		}
		if _, ok := streamVerdict(body, "x", url); !ok {
			t.Fatalf("streamVerdict gave up on %.40q…", url)
		}
		if n := testing.AllocsPerRun(10, func() { streamVerdict(body, "x", url) }); n != 0 {
			t.Errorf("streamVerdict(%.40q…) allocated %v times", url, n)
		}
		streamVerdictTwin(t, []byte(body), load([]byte(body)), "x", url)
	}
}

// FuzzStreamCorners: files and questions aimed at the stream's shortcuts
// (see genCornerFile), built from the fuzz input, stream as the compiled
// form answers and without allocating.
func FuzzStreamCorners(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"))
	f.Add(bytes.Repeat([]byte{0x07, 0x00, 0x03, 0x91, 0x1c, 0x08}, 40))
	f.Fuzz(func(t *testing.T, src []byte) {
		c := reference.NewChooser(src)
		cf := genCornerFile(c)
		body := string(cf.body)
		r := load(cf.body)
		for q := 0; q < 4; q++ {
			agent, url := genCornerAgent(c, &cf), genCornerURL(c, &cf)
			streamVerdictTwin(t, cf.body, r, agent, url)
			if _, n, _ := findPath(url); n <= pathBufSize {
				if a := testing.AllocsPerRun(1, func() { streamVerdict(body, agent, url) }); a != 0 {
					t.Fatalf("streamVerdict(%q, %q) allocated %v times\nrobots.txt: %q", agent, url, a, body)
				}
			}
		}
	})
}

// A fresh hostile file's first questions stream: its tens of thousands of
// wildcard rules are ruled out by the path's bytes and pairs
// (pathpairs.go), which cost no budget, rather than matched until the
// budget is spent and the file compiled. Every answer is the compiled
// form's, and so is each variant path's, streamed or not.
func TestStreamHostileFamilies(t *testing.T) {
	for _, f := range reference.HostileFamilies(500 << 10) {
		compiled := load(f.File)
		for _, n := range []int{100, 1 << 10, 16 << 10} {
			url := "https://example.com" + f.Path(n)
			if _, ok := streamVerdict(string(f.File), "Googlebot", url); !ok {
				t.Errorf("%s, path of %d bytes: the stream gave up", f.Name, n)
			}
			for _, u := range []string{url, url + "bcd", url + "hgfedcba", url + "/ab/qq/xyz"} {
				streamVerdictTwin(t, f.File, compiled, "Googlebot", u)
			}
		}
	}
}

// runPrefix and literalOf, which disallowRun reads each value with, agree
// with slow twins on random values of the bytes that matter to them
// (every stop byte of a simple value, bytes >= 0x80, '*' and '$'), at
// every length and alignment.
func TestRunPrefixAndLiteral(t *testing.T) {
	bytesOf := []byte{'/', 'a', 'b', '*', '$', '%', '#', ' ', '\t', '\n', '\r', 0, 0x7F, 0x80, 0xA3, 0xA5, 0xE9, 0xFF, '~', '!'}
	reference.EachChooser(23, 20000, 64, func(_ int, c *reference.Chooser) {
		b := make([]byte, c.Pick(40))
		for i := range b {
			b[i] = bytesOf[c.Pick(len(bytesOf))]
			if c.Pick(2) == 0 {
				b[i] = "/ab*$"[c.Pick(5)]
			}
		}
		s := string(b)
		k, high := runPrefix(s)
		wantK, wantHigh := 0, false
		for wantK < len(s) && (s[wantK] >= 0x80 || simpleValueByte[s[wantK]]) {
			wantHigh = wantHigh || s[wantK] >= 0x80
			wantK++
		}
		if k != wantK || high != wantHigh {
			t.Fatalf("runPrefix(%q) = %d, %v; want %d, %v", s, k, high, wantK, wantHigh)
		}
		// literalOf on such a value, against a path that shares some of
		// its first bytes.
		pat := s[:k]
		path := pat[:c.Pick(len(pat)+1)] + "/ab*$"[:c.Pick(6)]
		lit, whole := literalOf(pat, path)
		prefix, wantWhole := literalPrefix(pat)
		for h := 0; h < len(prefix); h++ {
			if prefix[h] >= 0x80 {
				// The wire form of a byte >= 0x80 differs: only the
				// bytes before it are compared.
				prefix, wantWhole = prefix[:h], false
				break
			}
		}
		wantLit := len(prefix)
		if !strings.HasPrefix(path, prefix) {
			wantLit = -1
		}
		if wantLit < 0 {
			wantWhole = false
		}
		if lit != wantLit || whole != wantWhole {
			t.Fatalf("literalOf(%q, %q) = %d, %v; want %d, %v", pat, path, lit, whole, wantLit, wantWhole)
		}
	})
}
