// Package robotstxt parses robots.txt files and answers whether a crawler
// may fetch a URL, exactly as Google's robots.txt parser and matcher
// (github.com/google/robotstxt) answer, quirks included.
//
// Parse a file once and ask as often as needed; a parsed *Robots is
// immutable and safe for concurrent use:
//
//	robots := robotstxt.Parse(body)
//	if robots.Allowed("Googlebot", "https://example.com/some/page?q=1") {
//		// fetch it
//	}
//
// Parse accepts any bytes and never fails: lines it cannot read are
// ignored, as Google ignores them. It reads the first 512,000 bytes
// (500 KiB), as Googlebot does; [ParseWith] changes or lifts that limit.
//
// Parse itself only copies the file. The first four questions asked are
// each answered by reading the copy once, line by line, the way Google's
// matcher reads a file; the fifth (or any method other than Allowed and
// Explain) compiles the rules into the form that answers every later
// question in tens of nanoseconds, and drops the copy. A crawler that asks
// up to four questions of a file pays for reading it that many times; one
// that asks many pays for that and for compiling once.
//
// The agent is a product token such as "Googlebot", compared with the
// leading letters, '-' and '_' of each user-agent line, ignoring case; it is
// not a full User-Agent header. The URL may be absolute or just a path; it
// is matched in wire form, with every byte >= 0x80 percent-encoded and the
// hex digits of existing escapes upper-cased, so raw UTF-8 in a URL means
// what a crawler would send.
//
// To ask many questions for one crawler, resolve its rules once with
// [Robots.Agent]. To see which line of the file decided, use
// [Robots.Explain].
//
// Beyond fetching, [Robots.Usage] and [Agent.Usage] say what the file lets
// a crawler do with the content of a URL it may fetch: the AI usage
// preferences of Content-Usage lines (IETF drafts
// draft-ietf-aipref-attach-05 and draft-ietf-aipref-vocab-07, work in
// progress) and Content-Signal lines (Cloudflare's Content Signals
// Policy), read per group.
//
// Package github.com/seed50c7eacc/robotstxt/lint tells site owners what
// Google will actually do with their file: diagnostics for the traps that
// make a file mean something other than it seems to, and the per-line view
// of Google's reporting library. It reads files with the same tokenizer
// and grouper as Parse.
//
// The behaviour follows RFC 9309 (Robots Exclusion Protocol) and Google's
// documentation of how it reads robots.txt files,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
// and, where those leave room, Google's open-source library.
package robotstxt

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxSize is how many leading bytes of a robots.txt file Parse reads:
// 500 KiB, the limit Googlebot applies. The rest of a larger file is ignored.
const DefaultMaxSize = 512000

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use by multiple goroutines. The zero value is an empty file,
// which allows everything.
type Robots struct {
	// Parse keeps a copy of the file and builds nothing: the first
	// questions are answered by reading that copy, as Google's matcher
	// does (see streamVerdict and streamedQuestions), and the compiled
	// form below is built, once, when a later question or another
	// method needs it.
	pending atomic.Pointer[string] // the file, until compiled; nil after
	asked   atomic.Uint32          // questions asked before compiling
	built   atomic.Bool            // the fields below are set
	mu      sync.Mutex             // held while compiling

	groups    []group
	agents    []string // user-agent values, in file order
	fields    []Field  // other directives, in file order
	text      string   // the string block: every kept string is a part of it
	sitemaps  []string
	tokens    []agentToken // every product token of the file
	slots     []uint32     // finds tokens by name (see agents.go)
	tokenMask uint32       // the bits of a slot that hold a token's index
	sets      []ruleSet    // the rule sets tokens lead to
	globalSet int32        // 1 + the index in sets of the rules of the "*" groups; 0 if none
	size      int          // bytes read
	truncated bool         // bytes past the size limit were ignored
	outcome   Outcome      // Rules, or a blanket answer from an HTTP result
}

// Options control how a file is parsed. The zero value reads the file as
// Googlebot does.
type Options struct {
	// MaxSize is how many leading bytes of the file are parsed. Zero means
	// DefaultMaxSize; a negative value means the whole file, up to
	// MaxParseSize.
	MaxSize int
}

// MaxParseSize bounds every read, whatever Options.MaxSize says: the
// compiled form addresses its strings and records with 32-bit offsets, and
// a larger file would overflow them. It is 1 GiB, 2,000 times what
// Googlebot reads.
const MaxParseSize = 1 << 30

// Limit returns how many leading bytes of a file ParseWith reads with
// options o: MaxSize, DefaultMaxSize for zero, and at most MaxParseSize.
// Tools that read a file before parsing it (a linter, a command) read as
// much.
func (o Options) Limit() int {
	switch {
	case o.MaxSize == 0:
		return DefaultMaxSize
	case o.MaxSize < 0 || o.MaxSize > MaxParseSize:
		return MaxParseSize
	}
	return o.MaxSize
}

// Parse parses a robots.txt file, reading its first DefaultMaxSize bytes.
// Any byte sequence is valid input: what cannot be read as a directive is
// ignored. Parse does not retain data: it copies what it reads, and
// compiles the copy when it is first needed (see the package
// documentation).
func Parse(data []byte) *Robots {
	return ParseWith(data, Options{})
}

// ParseWith parses a robots.txt file with the given options.
func ParseWith(data []byte, opts Options) *Robots {
	limit := opts.Limit()
	r := &Robots{}
	if len(data) > limit {
		data = data[:limit]
		r.truncated = true
	}
	r.size = len(data)
	if len(data) > 0 {
		body := string(data)
		r.pending.Store(&body)
	}
	return r
}

// ready compiles the file, once, if that is not done yet. Every method
// that reads the compiled fields calls it first.
func (r *Robots) ready() {
	if !r.built.Load() {
		r.compile()
	}
}

// compile builds the compiled form from the pending copy of the file and
// drops the copy.
func (r *Robots) compile() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.built.Load() {
		return
	}
	if body := r.pending.Load(); body != nil {
		r.build(*body)
		r.buildUsage()
	}
	r.built.Store(true)
	// A question streaming over the copy keeps its own reference.
	r.pending.Store(nil)
}

// Allowed reports whether the crawler agent may fetch url. It returns
// exactly what Google's RobotsMatcher::OneAgentAllowedByRobots returns for
// the same file, the same agent and the URL in wire form. It does not
// allocate unless url holds bytes that need escaping and its path is longer
// than 2 KiB once escaped.
func (r *Robots) Allowed(agent, url string) bool {
	if r == nil {
		return true // an empty file
	}
	if !r.built.Load() {
		if v, ok := r.streamOrCompile(agent, url); ok {
			return v.Allowed
		}
	}
	// lookup, not rulesFor: one call less on every compiled question.
	rs, _ := r.lookup(agent)
	return rs.allowed(url)
}

// Explain returns the verdict for agent and url, with the rule that decided
// it. The rule's line is the one Google's RobotsMatcher::matching_line
// reports.
func (r *Robots) Explain(agent, url string) Verdict {
	if r == nil {
		return Verdict{Allowed: true}
	}
	if !r.built.Load() {
		if v, ok := r.streamOrCompile(agent, url); ok {
			return v
		}
	}
	rs, _ := r.lookup(agent)
	return rs.verdict(url)
}

// streamOrCompile answers a question by streaming over the file, while
// the file is not compiled and fewer than streamedQuestions questions have
// been asked of it, and otherwise compiles it: when ok is false, r is
// compiled.
func (r *Robots) streamOrCompile(agent, url string) (v Verdict, ok bool) {
	if body := r.pending.Load(); body != nil && r.asked.Add(1) <= streamedQuestions {
		if v, ok := streamVerdict(*body, agent, url); ok {
			return v, true
		}
	}
	r.compile()
	return Verdict{}, false
}

// streamedQuestions is how many questions are answered by streaming over
// the file before it is compiled. On the corpus, side by side on one CPU,
// streaming once costs about a quarter of compiling (0.72 against 3.2
// seconds a GB), so after four the streaming has cost about as much as the
// compiling it avoided, whose cost is then paid (as renting skis until the
// rent paid would have bought them): whatever the number of questions, the
// total is at most about twice what the better choice in hindsight costs,
// and a crawler that asks a file up to four questions pays only for
// reading it that many times.
const streamedQuestions = 4

// Agent resolves the rules that apply to one crawler, so that many URLs can
// be checked without looking the agent up again.
//
// A crawler may answer to several product tokens, most specific first:
// Google's image crawler obeys a "Googlebot-Image" group when the file has
// one, else a "Googlebot" group, else the "*" groups; Apple's Applebot obeys
// Googlebot's rules when the file names Applebot nowhere. Agent takes the
// tokens in that order: the first one that some group of the file names
// decides which groups apply (they are never mixed), and when none is named
// the "*" groups apply. With no names at all, the "*" groups apply.
func (r *Robots) Agent(names ...string) *Agent {
	// Small enough to inline, so that an Agent used only within its
	// caller's frame need not be allocated.
	a := new(Agent)
	r.resolve(a, names)
	return a
}

// resolve sets a to the rules for names; see Agent.
func (r *Robots) resolve(a *Agent, names []string) {
	for _, name := range names {
		if rs, specific := r.rulesFor(name); specific {
			*a = Agent{name: name, rules: rs, specific: true}
			return
		}
	}
	// No product token contains '*', so this finds the "*" groups (or a
	// blanket answer).
	rs, _ := r.rulesFor("*")
	*a = Agent{rules: rs}
	if len(names) > 0 {
		a.name = names[0]
	}
}

// Sitemaps returns the values of the file's sitemap lines, in file order.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	r.ready()
	return append([]string(nil), r.sitemaps...)
}

// Fields returns every directive of the file that is not user-agent, allow,
// disallow or sitemap (crawl-delay, host, clean-param, ...), in file order,
// whether or not it stands in a group.
func (r *Robots) Fields() []Field {
	if r == nil {
		return nil
	}
	r.ready()
	return append([]Field(nil), r.fields...)
}

// Groups returns the file's groups in file order: each is a run of
// user-agent lines with the rules and other fields that follow them. Groups
// are as written; groups naming the same agent are merged only when
// matching.
func (r *Robots) Groups() []Group {
	if r == nil {
		return nil
	}
	r.ready()
	out := make([]Group, len(r.groups))
	for i := range r.groups {
		g := &r.groups[i]
		out[i] = Group{
			Line:   int(g.line),
			Agents: append([]string(nil), r.agents[g.agentLo:g.agentHi]...),
			Rules:  r.rulesAsWritten(g),
			Fields: append([]Field(nil), r.fields[g.fieldLo:g.fieldHi]...),
		}
	}
	return out
}

// rulesAsWritten returns a group's rules in file order.
func (r *Robots) rulesAsWritten(g *group) []Rule {
	var rules []Rule
	for i := range g.rules {
		if g.rules[i].info&ruleDerived == 0 {
			rules = append(rules, g.rules[i].asWritten(r.text, g.rules))
		}
	}
	slices.SortFunc(rules, func(a, b Rule) int { return a.Line - b.Line })
	return rules
}

// Size returns how many bytes of the file were parsed.
func (r *Robots) Size() int {
	if r == nil {
		return 0
	}
	return r.size
}

// Truncated reports whether the file was longer than the size limit, so
// that its end was ignored.
func (r *Robots) Truncated() bool { return r != nil && r.truncated }

// An Agent is the set of rules that apply to one crawler in one file. It is
// immutable and safe for concurrent use.
type Agent struct {
	name     string
	rules    *ruleSet
	specific bool
}

// Name returns the agent name the Agent was resolved for: of the names
// given to Robots.Agent, the first that some group names, or the first name
// when none is named.
func (a *Agent) Name() string {
	if a == nil {
		return ""
	}
	return a.name
}

// Specific reports whether some group of the file names this agent. When
// it does, only those groups apply, even if they hold no rules; otherwise
// the "*" groups apply.
func (a *Agent) Specific() bool { return a != nil && a.specific }

// Allowed reports whether the agent may fetch url; see Robots.Allowed.
func (a *Agent) Allowed(url string) bool { return a.ruleSet().allowed(url) }

// Explain returns the verdict for url with the rule that decided it; see
// Robots.Explain.
func (a *Agent) Explain(url string) Verdict { return a.ruleSet().verdict(url) }

// ruleSet returns the agent's rules; a zero or nil Agent has none.
func (a *Agent) ruleSet() *ruleSet {
	if a == nil || a.rules == nil {
		return &noRules
	}
	return a.rules
}

// MaxCrawlDelay caps the delays that CrawlDelay and RequestRate report, so
// that a hostile or mistaken value ("Crawl-delay: 99999999999999") can
// neither overflow a time.Duration nor stop a crawler for years: a larger
// value reads as MaxCrawlDelay, one request a day. Crawlers usually apply a
// much lower cap of their own (package fetch's Transport: 30 seconds).
const MaxCrawlDelay = 24 * time.Hour

// CrawlDelay returns the crawl-delay that applies to the agent, read from
// the same groups its rules come from: the first valid value (a
// non-negative decimal number of seconds), in file order, capped at
// MaxCrawlDelay. ok is false when no group that applies sets one. Google
// ignores crawl-delay; other crawlers (Bing, Yandex) honour it.
func (a *Agent) CrawlDelay() (delay time.Duration, ok bool) {
	rs := a.ruleSet()
	return rs.crawlDelay, rs.hasCrawlDelay
}

// RequestRate returns the request-rate that applies to the agent, read like
// CrawlDelay from the groups its rules come from: the first valid value, in
// file order. A valid value is "n/T": n requests per T seconds, where T may
// end in s, m, h or d for seconds, minutes, hours or days ("1/5",
// "10/1m"); a time window after it ("1/10m 0600-0845") is ignored. The
// returned interval is T/n, capped at MaxCrawlDelay. ok is false when no
// group that applies sets a valid one. Google ignores request-rate; some
// other crawlers honour it.
func (a *Agent) RequestRate() (interval time.Duration, ok bool) {
	rs := a.ruleSet()
	return rs.requestInterval, rs.hasRequestRate
}

// A Rule is an allow or disallow line of a group.
type Rule struct {
	Allow   bool   `json:"allow"`   // an allow rule; false for disallow
	Pattern string `json:"pattern"` // the path pattern as written, trimmed and without comment
	Line    int    `json:"line"`    // 1-based line number in the file
}

// String returns the rule as a robots.txt line.
func (r Rule) String() string {
	if r.Allow {
		return "allow: " + r.Pattern
	}
	return "disallow: " + r.Pattern
}

// A Field is a directive other than user-agent, allow, disallow and
// sitemap, such as crawl-delay or host.
type Field struct {
	Key   string // the key as written
	Value string // the value as written, trimmed and without comment
	Line  int    // 1-based line number in the file
}

// A Group is a run of user-agent lines and the lines that follow them, up
// to the next user-agent line that follows a rule.
type Group struct {
	Line   int      // line of the first user-agent line
	Agents []string // the user-agent values as written
	Rules  []Rule
	Fields []Field // other directives within the group, such as crawl-delay
}

// A Verdict is the answer for one URL with the rule that decided it.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Rule is the rule that decided. Its Line is 0 when no rule applied.
	//
	// As in Google's library, an empty "disallow:" that is the only rule
	// to match names its line although it allows everything.
	Rule Rule `json:"rule"`
}

// String describes the verdict, for logs.
func (v Verdict) String() string {
	word := "DISALLOWED"
	if v.Allowed {
		word = "ALLOWED"
	}
	if v.Rule.Line == 0 {
		return word + " (no rule applied)"
	}
	return fmt.Sprintf("%s by line %d: %s", word, v.Rule.Line, v.Rule)
}
