package robotstxt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

// Google's docs, "URL matching based on path values" (its table): each pattern as a disallow rule, against the
// paths it must and must not match.
func TestSpecPatternExamples(t *testing.T) {
	tests := []struct {
		pattern     string
		matches     []string
		doesntMatch []string
	}{
		{"/", []string{"/", "/page", "/a/b?c"}, nil},
		{"/*", []string{"/", "/page", "/a/b?c"}, nil},
		{"/$", []string{"/"}, []string{"/page"}},
		{"/fish",
			[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish*",
			[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish/",
			[]string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"},
			[]string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php",
			[]string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			[]string{"/", "/windows.PHP"}},
		{"/*.php$",
			[]string{"/filename.php", "/folder/filename.php"},
			[]string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php",
			[]string{"/fish.php", "/fishheads/catfish.php?parameters"},
			[]string{"/Fish.PHP"}},
	}
	for _, tt := range tests {
		r := robotstxt.Parse([]byte("user-agent: FooBot\ndisallow: " + tt.pattern + "\n"))
		for _, p := range tt.matches {
			if r.Allowed("FooBot", "http://example.com"+p) {
				t.Errorf("pattern table: %q does not match %q", tt.pattern, p)
			}
		}
		for _, p := range tt.doesntMatch {
			if !r.Allowed("FooBot", "http://example.com"+p) {
				t.Errorf("pattern table: %q matches %q", tt.pattern, p)
			}
		}
	}
}

// Google's docs, "Order of precedence for rules" (its examples); RFC 9309
// section 2.2.2.
func TestSpecPrecedenceExamples(t *testing.T) {
	tests := []struct {
		url, allow, disallow string
		allowed              bool
	}{
		{"https://example.com/page", "/p", "/", true},
		{"https://example.com/folder/page", "/folder", "/folder", true},
		{"https://example.com/page.htm", "/page", "/*.htm", false},
		{"https://example.com/page.php5", "/page", "/*.ph", true},
		{"https://example.com/", "/$", "/", true},
		{"https://example.com/page.htm", "/$", "/", false},
	}
	for _, tt := range tests {
		for _, order := range []string{
			"allow: " + tt.allow + "\ndisallow: " + tt.disallow,
			"disallow: " + tt.disallow + "\nallow: " + tt.allow,
		} {
			r := robotstxt.Parse([]byte("user-agent: *\n" + order + "\n"))
			if got := r.Allowed("Googlebot", tt.url); got != tt.allowed {
				t.Errorf("precedence: %s with\n%s\nAllowed = %v, want %v", tt.url, order, got, tt.allowed)
			}
		}
	}
}

// Google's docs, "Order of precedence for user agents" (its example), and
// RFC 9309 section 2.2.1.
func TestSpecGroupSelection(t *testing.T) {
	r := robotstxt.Parse([]byte("user-agent: googlebot-news\ndisallow: /1\n\n" +
		"user-agent: *\ndisallow: /2\n\n" +
		"user-agent: googlebot\ndisallow: /3\n"))
	tests := []struct {
		agents []string // the tokens the crawler answers to, most specific first
		group  string
	}{
		{[]string{"googlebot-news"}, "/1"},
		{[]string{"googlebot"}, "/3"},
		{[]string{"googlebot-image", "googlebot"}, "/3"},
		{[]string{"storebot-google"}, "/2"},
		{[]string{"otherbot"}, "/2"},
	}
	for _, tt := range tests {
		// Google's docs, "Order of precedence for user agents": the crawler chooses its tokens; it uses the first that
		// names a group.
		agent := r.Agent(tt.agents[0])
		for _, name := range tt.agents {
			if a := r.Agent(name); a.Specific() {
				agent = a
				break
			}
		}
		for _, g := range []string{"/1", "/2", "/3"} {
			want := g != tt.group
			if got := agent.Allowed("http://example.com" + g); got != want {
				t.Errorf("group selection: %v on %s: Allowed = %v, want %v", tt.agents, g, got, want)
			}
		}
	}
}

// A rule with no path allows everything: RFC 9309 section 2.2.2, robots.cc
// disallow() (an empty pattern never disallows).
func TestSpecEmptyDisallow(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow:\n"))
	if !r.Allowed("x", "http://example.com/anything") {
		t.Error("empty Disallow disallowed")
	}
}

// RFC 9309 section 2.2.2: prefix match; parameter order matters.
func TestSpecParameterOrder(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /index.php?action=print\n"))
	if r.Allowed("x", "http://example.com/index.php?action=print&id=1") {
		t.Error("RFC 9309 section 2.2.2: prefix did not match")
	}
	if !r.Allowed("x", "http://example.com/index.php?id=1&action=print") {
		t.Error("RFC 9309 section 2.2.2: reordered parameters matched")
	}
}

// RFC 9309 section 2.2.2: a path without a leading slash never matches (Google does not
// add one); '*' may lead instead.
func TestSpecPathWithoutSlash(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: fish\nDisallow: *.gif$\n"))
	if !r.Allowed("x", "http://example.com/fish") {
		t.Error(`"fish" matched /fish`)
	}
	if r.Allowed("x", "http://example.com/a/b.gif") {
		t.Error(`"*.gif$" did not match /a/b.gif`)
	}
}

// Garbage never stops parsing (Google's docs, "File format": invalid lines
// are ignored); RFC 9309 section 2.2.
func TestSpecLenientFormat(t *testing.T) {
	body := "<html><body>\x00\xff\xfe garbage\n" +
		"  USER-AGENT :  FooBot  # the crawler\n" +
		"DISALLOW:/private   # keep out\n" +
		"</body></html>\n"
	r := robotstxt.Parse([]byte(body))
	if r.Allowed("foobot", "http://example.com/private/x") {
		t.Error("rule after garbage was lost")
	}
	if !r.Allowed("foobot", "http://example.com/PRIVATE/x") {
		t.Error("RFC 9309 section 2.2.2: path matching ignored case")
	}
}

// The first 512,000 bytes are read: Google's docs, "File format" (500 KiB);
// Parse's documentation.
func TestSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	pad := strings.Repeat("#", robotstxt.DefaultMaxSize-len(head)-1) + "\n"
	tail := "Disallow: /b\n"
	data := []byte(head + pad + tail)

	r := robotstxt.Parse(data)
	if !r.Truncated() || r.Size() != robotstxt.DefaultMaxSize {
		t.Errorf("Truncated() = %v, Size() = %d; want true, %d", r.Truncated(), r.Size(), robotstxt.DefaultMaxSize)
	}
	if !r.Allowed("x", "/b") {
		t.Error("a rule past 500 KiB applied")
	}
	if r.Allowed("x", "/a") {
		t.Error("a rule before the limit was lost")
	}

	all := robotstxt.ParseWith(data, robotstxt.Options{MaxSize: -1})
	if all.Truncated() || all.Allowed("x", "/b") {
		t.Errorf("MaxSize -1: Truncated() = %v, /b allowed = %v; want false, false", all.Truncated(), all.Allowed("x", "/b"))
	}
	small := robotstxt.ParseWith([]byte(head), robotstxt.Options{MaxSize: len("User-agent: *\nDisallow: /")})
	if small.Allowed("x", "/b") {
		t.Error("MaxSize cutting mid-line: the cut rule should read as Disallow: /")
	}
	exact := robotstxt.Parse(data[:robotstxt.DefaultMaxSize])
	if exact.Truncated() {
		t.Error("a file of exactly DefaultMaxSize bytes reported as truncated")
	}
}

// Every read stops at MaxParseSize, however large the MaxSize asked: the
// compiled form's 32-bit offsets could not address more.
func TestMaxParseSize(t *testing.T) {
	tests := []struct{ maxSize, want int }{
		{0, robotstxt.DefaultMaxSize},
		{100, 100},
		{-1, robotstxt.MaxParseSize},
		{robotstxt.MaxParseSize, robotstxt.MaxParseSize},
		{robotstxt.MaxParseSize + 1, robotstxt.MaxParseSize},
	}
	for _, tt := range tests {
		if got := (robotstxt.Options{MaxSize: tt.maxSize}).Limit(); got != tt.want {
			t.Errorf("Options{MaxSize: %d}.Limit() = %d, want %d", tt.maxSize, got, tt.want)
		}
	}
}

// Parse reads the caller's buffer in place and copies out what it keeps:
// overwriting the buffer afterwards must change nothing observable.
func TestParseCopiesInput(t *testing.T) {
	files := [][]byte{
		[]byte("User-agent: FooBot\nUser-agent: *\nDisallow: /a\nAllow: /a/index.html\n" +
			"Disallow: /caf\xc3\xa9/*.php$\nCrawl-delay: 2.5\nHost: x\n\nSitemap: http://x/s\n" +
			"user-agent: BarBot\ndisallow: /" + strings.Repeat("b", 20000) + "\nnoindex: /n\n"),
	}
	agents := []string{"FooBot", "BarBot", "Googlebot"}
	urls := []string{"/", "/a", "/a/", "/a/index.html", "/caf%C3%A9/x.php", "/" + strings.Repeat("b", 20000)}
	observe := func(r *robotstxt.Robots) any {
		type view struct {
			Groups   []robotstxt.Group
			Fields   []robotstxt.Field
			Sitemaps []string
			Verdicts []robotstxt.Verdict
			Delays   []time.Duration
		}
		v := view{Groups: r.Groups(), Fields: r.Fields(), Sitemaps: r.Sitemaps()}
		for _, a := range agents {
			d, _ := r.Agent(a).CrawlDelay()
			v.Delays = append(v.Delays, d)
			for _, u := range urls {
				v.Verdicts = append(v.Verdicts, r.Explain(a, u))
			}
		}
		return v
	}
	check := func(t *testing.T, name string, f []byte) {
		want := observe(robotstxt.Parse(bytes.Clone(f)))
		data := bytes.Clone(f)
		r := robotstxt.Parse(data)
		for j := range data {
			data[j] = 'z'
		}
		if diff := cmp.Diff(want, observe(r)); diff != "" {
			t.Fatalf("%s: overwriting the input changed the result (-want +got):\n%s", name, diff)
		}
	}
	for i, f := range files {
		check(t, fmt.Sprint("file ", i), f)
	}
	t.Run("corpus", func(t *testing.T) {
		names, corpus := loadCorpus(t)
		for i, f := range corpus {
			check(t, names[i], f)
		}
	})
}

// RFC 9309 section 2.2.4: sitemaps in file order, wherever they stand.
func TestSitemaps(t *testing.T) {
	r := robotstxt.Parse([]byte("Sitemap: http://a/1.xml\nUser-agent: *\nSitemap: http://b/2.xml # c\nDisallow: /\nsite-map: http://c/3.xml\nSitemap:\nSitemaps: http://d/4.xml\n"))
	want := []string{"http://a/1.xml", "http://b/2.xml", "http://c/3.xml", "http://d/4.xml"}
	got := r.Sitemaps()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sitemaps() (-want +got):\n%s", diff)
	}
	got[0] = "changed"
	if r.Sitemaps()[0] != want[0] {
		t.Error("Sitemaps() returned the internal slice")
	}
}

// robots.cc MaybeEscapePattern: rule values are brought to wire form; sitemap values
// are not.
func TestRawValuesForAgentAndSitemap(t *testing.T) {
	r := robotstxt.Parse([]byte("Sitemap: http://x/caf\xC3\xA9%aa.xml\nUser-agent: *\nDisallow: /\n"))
	if diff := cmp.Diff([]string{"http://x/caf\xC3\xA9%aa.xml"}, r.Sitemaps()); diff != "" {
		t.Errorf("sitemap not raw (-want +got):\n%s", diff)
	}
}

// RFC 9309 section 2.2.4: other fields are exposed, and Groups shows the file's
// structure.
func TestGroupsAndFields(t *testing.T) {
	r := robotstxt.Parse([]byte("Host: example.com\n" +
		"User-agent: a\n" +
		"Crawl-delay: 5\n" +
		"User-agent: b\n" +
		"Disallow: /x\n" +
		"Clean-param: ref /articles/\n" +
		"User-agent: *\n" +
		"Allow: /\n"))
	wantGroups := []robotstxt.Group{
		{Line: 2, Agents: []string{"a", "b"},
			Rules:  []robotstxt.Rule{{Allow: false, Pattern: "/x", Line: 5}},
			Fields: []robotstxt.Field{{Key: "Crawl-delay", Value: "5", Line: 3}, {Key: "Clean-param", Value: "ref /articles/", Line: 6}}},
		{Line: 7, Agents: []string{"*"}, Rules: []robotstxt.Rule{{Allow: true, Pattern: "/", Line: 8}}},
	}
	if diff := cmp.Diff(wantGroups, r.Groups()); diff != "" {
		t.Errorf("Groups() (-want +got):\n%s", diff)
	}
	wantFields := []robotstxt.Field{
		{Key: "Host", Value: "example.com", Line: 1},
		{Key: "Crawl-delay", Value: "5", Line: 3},
		{Key: "Clean-param", Value: "ref /articles/", Line: 6},
	}
	if diff := cmp.Diff(wantFields, r.Fields()); diff != "" {
		t.Errorf("Fields() (-want +got):\n%s", diff)
	}
}

func TestAgentView(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /\nUser-agent: FooBot\nAllow: /\nDisallow: /x\n"))
	foo := r.Agent("FooBot")
	if foo.Name() != "FooBot" || !foo.Specific() {
		t.Errorf("Agent(FooBot): Name %q, Specific %v", foo.Name(), foo.Specific())
	}
	if other := r.Agent("Other"); other.Specific() {
		t.Error("Agent(Other).Specific() = true")
	}
	want := robotstxt.Verdict{Allowed: false, Rule: robotstxt.Rule{Pattern: "/x", Line: 5}}
	if diff := cmp.Diff(want, foo.Explain("http://h/x")); diff != "" {
		t.Errorf("Explain (-want +got):\n%s", diff)
	}
}

func TestVerdictString(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /x\n"))
	tests := []struct{ url, want string }{
		{"/x", "DISALLOWED by line 2: disallow: /x"},
		{"/y", "ALLOWED (no rule applied)"},
	}
	for _, tt := range tests {
		if got := r.Explain("a", tt.url).String(); got != tt.want {
			t.Errorf("Explain(%q).String() = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// The zero Robots and a nil *Robots are empty files; a zero or nil *Agent
// has no rules.
func TestZeroValue(t *testing.T) {
	var zero robotstxt.Robots
	var nilRobots *robotstxt.Robots
	for _, r := range []*robotstxt.Robots{&zero, nilRobots} {
		if !r.Allowed("a", "/x") || r.Explain("a", "/x").Rule.Line != 0 {
			t.Error("empty Robots disallowed")
		}
		if _, ok := r.Agent("a").CrawlDelay(); ok {
			t.Error("empty Robots has a crawl delay")
		}
	}
	if nilRobots.Sitemaps() != nil || nilRobots.Fields() != nil || nilRobots.Groups() != nil ||
		nilRobots.Size() != 0 || nilRobots.Truncated() || nilRobots.Outcome() != robotstxt.Rules || nilRobots.Agent("a").Specific() {
		t.Error("nil *Robots is not an empty file")
	}
	var nilAgent *robotstxt.Agent
	if !nilAgent.Allowed("/x") || nilAgent.Explain("/x").Rule.Line != 0 || nilAgent.Specific() || nilAgent.Name() != "" {
		t.Error("nil *Agent is not an agent without rules")
	}
	if _, ok := nilAgent.CrawlDelay(); ok {
		t.Error("nil *Agent has a crawl delay")
	}
	var agent robotstxt.Agent
	if !agent.Allowed("/x") || agent.Explain("/x").Rule.Line != 0 || agent.Specific() {
		t.Error("zero Agent is not an agent without rules")
	}
	if _, ok := agent.CrawlDelay(); ok {
		t.Error("zero Agent has a crawl delay")
	}
}

// A *Robots and an *Agent answer the same from many goroutines at once,
// including while the lazy index of a large rule set is being built (run
// with -race).
func TestConcurrentUse(t *testing.T) {
	big := manyRulesFile(2000)
	for round := 0; round < 20; round++ {
		r := robotstxt.Parse([]byte(big + "User-agent: b\nDisallow: /é\n"))
		agent := r.Agent("b")
		star := r.Agent("x")
		urls := []string{"/product/5/", "/product/6/", "/tmp/4/", "/é", "/a", "/10.pdf"}
		want := make([]bool, len(urls))
		ref := robotstxt.Parse([]byte(big))
		for i, u := range urls {
			want[i] = ref.Allowed("x", u)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan string, 16)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				<-start
				for i := 0; i < 50; i++ {
					k := (g + i) % len(urls)
					if r.Allowed("x", urls[k]) != want[k] || star.Allowed(urls[k]) != want[k] {
						errs <- "wrong answer under concurrency for " + urls[k]
						return
					}
					if agent.Allowed("/é") || !agent.Allowed("/a") {
						errs <- "wrong answer for agent b under concurrency"
						return
					}
				}
			}(g)
		}
		close(start)
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}

// Allowed does not allocate, whether the URL is in wire form or not.
func TestAllowedDoesNotAllocate(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a*b$\nAllow: /é\nUser-agent: FooBot\nDisallow: /x\n"))
	agent := r.Agent("FooBot")
	urls := []string{"https://example.com/a/x/b", "https://example.com/é?q=%c3", "?x", strings.Repeat("/é", 250)}
	for _, u := range urls {
		if n := testing.AllocsPerRun(100, func() {
			r.Allowed("Googlebot", u)
			r.Allowed("foobot", u)
			agent.Allowed(u)
			r.Explain("googlebot", u)
		}); n != 0 {
			t.Errorf("%d allocations for %.40q", int(n), u)
		}
	}
}

// Any bytes parse; any strings query.
func TestNoPanics(t *testing.T) {
	inputs := [][]byte{
		nil, {}, {0}, {'\r'}, {'\n'}, []byte("\xEF"), []byte("\xEF\xBB\xBF"),
		[]byte(":"), []byte("#"), []byte("user-agent"), []byte("user-agent:"), []byte("disallow:*$"),
		bytes.Repeat([]byte("user-agent: *\n"), 1000),
		bytes.Repeat([]byte{0xff}, 20000),
		bytes.Repeat([]byte("*"), 20000),
	}
	for _, in := range inputs {
		r := robotstxt.Parse(in)
		for _, u := range []string{"", "/", "//", "?", "#", "\x00", "http://", "\xff\xfe", "%", "%%%"} {
			r.Allowed("", u)
			r.Allowed("*", u)
			r.Explain("\xff", u)
		}
	}
}

// A Verdict marshals in the snake_case of lint.Report.
func TestVerdictJSON(t *testing.T) {
	v := robotstxt.Parse([]byte("User-agent: *\nDisallow: /x\n")).Explain("a", "/x/y")
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"allowed":false,"rule":{"allow":false,"pattern":"/x","line":2}}`
	if string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
}

// TestAgentTokenList checks Agent with several product tokens, most
// specific first. The file is the group-selection example of Google's
// robots.txt documentation ("How Google interprets the robots.txt
// specification", order of precedence for user agents): groups
// googlebot-news (1), * (2) and googlebot (3); Googlebot Images uses
// group 3, since it answers to googlebot too, and other crawlers use 2.
// Applebot follows Googlebot's rules when a file has none for Applebot
// (Apple's "About Applebot" page).
func TestAgentTokenList(t *testing.T) {
	robots := robotstxt.Parse([]byte(`user-agent: googlebot-news
disallow: /group1

user-agent: *
disallow: /group2

user-agent: googlebot
disallow: /group3
crawl-delay: 3
`))
	withApple := robotstxt.Parse([]byte("User-agent: Applebot\nDisallow: /apple\n\nUser-agent: Googlebot\nDisallow: /google\n\nUser-agent: *\nDisallow: /group2\n"))
	tests := []struct {
		name      string
		robots    *robotstxt.Robots
		names     []string
		wantGroup string // the path the applying group disallows
		wantName  string
		specific  bool
	}{
		{"Googlebot News uses group 1", robots, []string{"Googlebot-News", "Googlebot"}, "/group1", "Googlebot-News", true},
		{"Googlebot uses group 3", robots, []string{"Googlebot"}, "/group3", "Googlebot", true},
		{"Googlebot Images uses group 3", robots, []string{"Googlebot-Image", "Googlebot"}, "/group3", "Googlebot", true},
		{"Googlebot Images alone would use group 2", robots, []string{"Googlebot-Image"}, "/group2", "Googlebot-Image", false},
		{"Storebot-Google uses group 2", robots, []string{"Storebot-Google"}, "/group2", "Storebot-Google", false},
		{"Applebot falls back to Googlebot", robots, []string{"Applebot", "Googlebot"}, "/group3", "Googlebot", true},
		{"Applebot's own group first", withApple, []string{"Applebot", "Googlebot"}, "/apple", "Applebot", true},
		{"order decides", withApple, []string{"Googlebot", "Applebot"}, "/google", "Googlebot", true},
		{"case-insensitive", robots, []string{"APPLEBOT", "GOOGLEBOT"}, "/group3", "GOOGLEBOT", true},
		{"no names: the * group", robots, nil, "/group2", "", false},
	}
	for _, tt := range tests {
		a := tt.robots.Agent(tt.names...)
		if a.Allowed("https://example.com" + tt.wantGroup) {
			t.Errorf("%s: Agent(%q) allows %s; want the group that disallows it", tt.name, tt.names, tt.wantGroup)
		}
		for _, other := range []string{"/group1", "/group2", "/group3", "/apple", "/google"} {
			if other != tt.wantGroup && !a.Allowed("https://example.com"+other) {
				t.Errorf("%s: Agent(%q) disallows %s too", tt.name, tt.names, other)
			}
		}
		if a.Name() != tt.wantName || a.Specific() != tt.specific {
			t.Errorf("%s: Name() = %q, Specific() = %v; want %q, %v", tt.name, a.Name(), a.Specific(), tt.wantName, tt.specific)
		}
	}
	if d, ok := robots.Agent("Googlebot-Image", "Googlebot").CrawlDelay(); d != 3*time.Second || !ok {
		t.Errorf("Googlebot-Image via Googlebot: CrawlDelay() = %v, %v; want 3s from group 3", d, ok)
	}
	// A blanket answer applies whatever the names.
	if robotstxt.FromStatus(503, nil).Agent("a", "b").Allowed("/x") {
		t.Error("a DisallowAll Robots allowed /x to an agent list")
	}
}
