package lint

import (
	"bytes"
	"fmt"
	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/aipref"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Severity says how much a diagnostic matters.
type Severity uint8

const (
	// SeverityInfo notes something that works, but that a site owner may
	// want to know: Google ignores a field, merges groups, encodes a path.
	SeverityInfo Severity = iota
	// SeverityWarning marks something Google reads differently from how it
	// looks, or that other crawlers may read differently from Google.
	SeverityWarning
	// SeverityError marks a file that does not do what it evidently
	// intends (a rule that is ignored or never matches), or that is not a
	// robots.txt file at all.
	SeverityError
)

var severityNames = enumNames{kind: "severity", names: []string{"info", "warning", "error"}}

// String returns "info", "warning" or "error".
func (s Severity) String() string { return severityNames.name(uint8(s)) }

// MarshalText encodes s as its String form, for JSON.
func (s Severity) MarshalText() ([]byte, error) { return severityNames.marshal(uint8(s)) }

// UnmarshalText decodes the String form of a severity.
func (s *Severity) UnmarshalText(text []byte) error {
	return severityNames.unmarshal(text, (*uint8)(s))
}

// A Diagnostic is one finding of [Lint] about one line of a file.
type Diagnostic struct {
	Line     int      `json:"line"`     // 1-based line number, numbered as Google numbers lines
	Severity Severity `json:"severity"` // error, warning or info
	Code     Code     `json:"code"`     // stable kebab-case identifier; see Codes
	Message  string   `json:"message"`  // one line of explanation
}

// String formats d as "LINE: severity: message [code]".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d: %s: %s [%s]", d.Line, d.Severity, d.Message, d.Code)
}

// A Report is the result of [Lint]: diagnostics, and the per-line view of
// Google's reporting library with its counts.
type Report struct {
	// Diagnostics are sorted by line.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Lines has one entry per line of the bytes read (within the size
	// limit), the last (possibly empty) line included, as Google numbers
	// them.
	Lines []LineReport `json:"lines"`
	// ValidDirectives counts user-agent, allow, disallow and sitemap
	// lines.
	ValidDirectives int `json:"valid_directives"`
	// UnusedDirectives counts every other directive, tagged unused or
	// unknown, as Google's unused_directives does.
	UnusedDirectives int `json:"unused_directives"`
	// LastLine is the number of the last line: the line count.
	LastLine int `json:"last_line"`
}

// Count returns how many diagnostics have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// HasErrors reports whether any diagnostic is an error.
func (r *Report) HasErrors() bool { return r.Count(SeverityError) > 0 }

// Lint reads a robots.txt file as Google does and reports what Google will
// actually do with it: one [Diagnostic] per trap found, and a per-line view
// equal to that of Google's reporting library (the one behind Search
// Console's robots.txt report). Lint never fails and never panics; its
// time is about linear in the size of data, and what it allocates is
// proportional to the bytes it reads.
//
// Like Googlebot, Lint reads the first robotstxt.DefaultMaxSize bytes (500
// KiB): the per-line view, its counts and every diagnostic describe them.
// When data is longer, one content-past-limit diagnostic says where the
// cut falls and how many directives lie beyond it. [LintWith] changes the
// limit; with no limit, the per-line view is that of Google's reporting
// library on the whole file.
//
// The codes and their severities are listed in the package documentation
// and by [Codes].
//
// A rule R is reported as shadowed when, in the merged rules of some agent,
// one rule S of the other kind provably matches every path R matches and
// takes precedence: S's pattern is longer, or as long and S is an allow.
// Then R never changes a verdict for that agent. Lint proves "S matches
// every path R matches" by matching S against R's pattern with each '*' of
// R (and, unless R ends in '$', its open end) standing for a symbol only a
// '*' of S can absorb: "/a*" and "/*a" cover "/a", "/x*" covers "/x$". This
// is sound (no false reports). Rules that change no verdict otherwise (a
// rule repeated, a rule another rule of its kind subsumes, an allow no
// disallow it could override matches) are reported as rule-duplicate and
// rule-redundant, only when dropping the rule provably changes no path's
// verdict for the agent (see docs/lint.md).
func Lint(data []byte) *Report {
	return LintWith(data, Options{})
}

// Options control how Lint reads a file. The zero value reads it as
// Googlebot does.
type Options struct {
	// MaxSize is how many leading bytes of the file Googlebot is assumed
	// to read. Zero means robotstxt.DefaultMaxSize; a negative value means
	// the whole file, up to robotstxt.MaxParseSize.
	MaxSize int
}

// LintWith lints data with the size limit of opts (see [Options]). Like
// Googlebot, it reads only the bytes within the limit: the report
// describes them, and a content-past-limit diagnostic says what lies
// beyond (counted, not stored line by line).
func LintWith(data []byte, opts Options) *Report {
	limit := robotstxt.Options{MaxSize: opts.MaxSize}.Limit()
	// No copy of data: every string of the report is formatted anew.
	body := swar.String(data)
	within := body
	if len(body) > limit {
		within = body[:limit]
	}
	l := &linter{rep: &Report{}, size: len(within)}
	l.checkBody(within)
	// A first pass sizes everything, so that what Lint allocates is
	// proportional to what it reads, not to append's slack.
	n := parse.Count(within)
	l.rep.Lines = make([]LineReport, 0, n.Lines)
	l.groups.Presize(n)
	gr := parse.NewGrouper(within)
	var gl parse.Grouped
	for gr.Next(&gl) {
		l.checkLine(&gl.Line)
		l.group(&gl)
		if !l.quiet {
			l.notePreference(&gl)
			l.noteLicense(&gl)
		}
	}
	if len(within) < len(body) && !l.quiet { // a body that is not robots.txt is reported alone
		l.past = &pastLimit{limit: limit, size: len(body), cut: gl.Line, atLineStart: isLineEnd(body[limit-1])}
		l.past.count(body)
		l.reportPastLimit()
	}
	if !l.quiet {
		l.checkGroups()
		l.checkUsage()
	}
	l.rep.Diagnostics = l.diagnostics()
	if p := l.past; p != nil && !p.atLineStart && p.cutDiffers {
		l.rep.Diagnostics = dropCutLine(l.rep.Diagnostics, p.cut.Num)
	}
	sort.SliceStable(l.rep.Diagnostics, func(i, j int) bool {
		return l.rep.Diagnostics[i].Line < l.rep.Diagnostics[j].Line
	})
	return l.rep
}

// count reads the whole body, of which the linter read the part within
// the limit, and counts the directives Googlebot ignores.
func (p *pastLimit) count(body string) {
	tok := parse.NewTokenizer(body)
	var ln parse.Line
	for tok.Next(&ln) {
		if ln.Num == p.cut.Num && !p.atLineStart && ln != p.cut {
			p.cutDiffers = true
		}
		if (ln.Num > p.cut.Num || ln.Num == p.cut.Num && p.atLineStart) && ln.Flags&parse.LineHasDirective != 0 {
			p.directives++
		}
	}
}

func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

// dropCutLine removes the diagnostics of line num, the line the size limit
// cuts, but the content-past-limit one, which says it is cut: what the
// others say of its fragment ("Disallo" is not a directive) is not what
// the file says.
func dropCutLine(ds []Diagnostic, num int) []Diagnostic {
	kept := ds[:0]
	for _, d := range ds {
		if d.Line != num || d.Code == CodeContentPastLimit {
			kept = append(kept, d)
		}
	}
	return kept
}

// A linter is the state of one Lint call. It reads the shared grouper's
// lines: checkLine for the per-line view and line diagnostics, group for
// the group structure.
type linter struct {
	rep       *Report
	seenAgent bool // checkLine saw a user-agent line
	firstText int  // first line that is not empty, 0 until seen
	html      bool // the body looks like HTML
	quiet     bool // the body is not robots.txt: report only that

	groups parse.Collector
	joins  []groupJoin // lines inside groups that seem to end them but do not
	sep    separator   // in the open group, before its first rule
	past   *pastLimit

	found    chunkList[finding32] // the diagnostics; see diagnostics
	msgs     chunkList[string]    // their messages; see intern
	msgBuf   []byte               // addAs formats messages here
	interned hashIndex            // of the interned messages in msgs

	size         int             // the bytes read: the dead-rule proofs' budget grows with it
	license      licenseState    // where License lines stand; see noteLicense
	prefGrouping aipref.Grouping // the AI usage preference grouping check
	hasPrefs     bool            // some line is Content-Usage or Content-Signal
}

// pastLimit describes a body longer than the size limit.
type pastLimit struct {
	limit, size int
	cut         parse.Line // the last line of the body cut at limit
	atLineStart bool       // the cut falls at the start of cut's line
	cutDiffers  bool       // the whole body's line cut.num reads differently
	directives  int        // directives on lines after cut.num
}

// add reports a diagnostic with the usual severity of its code.
func (l *linter) add(num int, code Code, format string, args ...any) {
	l.addAs(num, severityOf(code), code, format, args...)
}

// addAs reports a diagnostic with severity sev.
func (l *linter) addAs(num int, sev Severity, code Code, format string, args ...any) {
	l.msgBuf = fmt.Appendf(l.msgBuf[:0], format, args...)
	l.addBuilt(num, sev, code)
}

// addBuilt reports a diagnostic whose message the caller built in
// l.msgBuf. The findings a file can repeat on every line build theirs
// this way: fmt would allocate for every argument.
func (l *linter) addBuilt(num int, sev Severity, code Code) {
	l.found.push(finding32{line: line32(num), sev: sev, code: codeIndex(code), message: l.intern(l.msgBuf)})
}

// A finding32 is a Diagnostic as the linter collects it, in 12 bytes
// rather than 48: the report's slice is built once, at the end, at its
// exact size.
type finding32 struct {
	line    int32 // see line32
	sev     Severity
	code    uint8  // index in codes
	message uint32 // index in linter.msgs
}

// line32 returns line number n as an int32, math.MaxInt32 past it: only a
// file of over 2^31 lines (2 GiB or more, read with no size limit) has
// such lines.
func line32(n int) int32 {
	return int32(min(n, math.MaxInt32))
}

// codeIndex returns the index of code in codes.
func codeIndex(code Code) uint8 {
	for i, c := range codes {
		if c.Code == code {
			return uint8(i)
		}
	}
	panic("lint: unregistered code " + string(code))
}

// diagnostics returns the diagnostics found, in one slice of the exact
// size: the compact chunks cost a quarter as much again, where append's
// growth of one slice would cost up to five times as much.
func (l *linter) diagnostics() []Diagnostic {
	all := make([]Diagnostic, 0, l.found.len())
	for _, c := range l.found.chunks {
		for _, f := range c {
			all = append(all, Diagnostic{Line: int(f.line), Severity: f.sev, Code: codes[f.code].Code, Message: l.msgs.at(int(f.message))})
		}
	}
	return all
}

// maxInterned bounds the distinct messages a linter keeps for reuse.
const maxInterned = 4096

// internScan is how many messages intern compares one by one before it
// indexes them: most files have a few findings, and pay for no index.
const internScan = firstChunk

// intern stores msg and returns its index in l.msgs, the same index for
// the same message: a file that repeats one finding on every line
// (groups-merged for the same agent, agent-token-differs for the same
// name) stores its message once. Only the first maxInterned distinct
// messages are looked up, so a file whose messages all differ pays for no
// growing table.
func (l *linter) intern(msg []byte) uint32 {
	hashOf := func(i int32) uint64 { return l.interned.hash(l.msgs.at(int(i))) }
	var x uint64
	if l.msgs.len() <= internScan {
		if l.msgs.len() > 0 {
			for i, m := range l.msgs.chunks[0] {
				if m == string(msg) {
					return uint32(i)
				}
			}
		}
	} else {
		x = l.interned.hash(swar.String(msg))
		if i := l.interned.find(x, func(i int32) bool { return l.msgs.at(int(i)) == string(msg) }); i >= 0 {
			return uint32(i)
		}
	}
	i := uint32(l.msgs.len())
	l.msgs.push(string(msg))
	switch n := l.msgs.len(); {
	case n == internScan+1:
		for j := range int32(n) { // index the messages so far, this one included
			l.interned.add(hashOf(j), j, hashOf)
		}
	case n > internScan+1 && l.interned.n < maxInterned:
		l.interned.add(x, int32(i), hashOf)
	}
	return i
}

// quote quotes s for a message, shortened when long.
func quote(s string) string { return string(appendQuote(nil, s)) }

// appendQuote appends quote(s) to dst.
func appendQuote(dst []byte, s string) []byte {
	short, cut := shorten(s)
	dst = strconv.AppendQuote(dst, short)
	if cut {
		dst = append(dst, "..."...)
	}
	return dst
}

// shorten cuts s to at most 60 bytes, at the start of a character.
func shorten(s string) (string, bool) {
	const max = 60
	if len(s) <= max {
		return s, false
	}
	cut := max
	for cut > max-4 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// checkBody looks at the body as a whole: UTF-16, gzip, binary, HTML.
func (l *linter) checkBody(body string) {
	if strings.HasPrefix(body, "\xFF\xFE") || strings.HasPrefix(body, "\xFE\xFF") {
		l.add(1, CodeUTF16, "the file is UTF-16 (it starts with a UTF-16 byte order mark); Google reads robots.txt as UTF-8 bytes and finds no rules in it")
		l.quiet = true
		return
	}
	if strings.HasPrefix(body, "\x1F\x8B") {
		l.add(1, CodeGzip, "the file is gzip-compressed (served compressed without saying so?); Google reads robots.txt as text and finds no rules in it")
		l.quiet = true
		return
	}
	if isBinary(body) {
		l.add(1, CodeBinary, "the file is binary data, not text (it holds NUL or other control bytes); Google finds no rules in it")
		l.quiet = true
		return
	}
	s := strings.TrimPrefix(body, "\xEF\xBB\xBF")
	for len(s) > 0 && parse.IsSpace(s[0]) {
		s = s[1:]
	}
	if len(s) == 0 || s[0] != '<' {
		return
	}
	head := s
	if len(head) > 4096 {
		head = head[:4096]
	}
	lower := bytes.ToLower([]byte(head))
	for _, marker := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<meta", "<script", "<style", "<iframe", "<div", "<link"} {
		if bytes.Contains(lower, []byte(marker)) {
			l.html, l.quiet = true, true
			return
		}
	}
}

// checkLine adds l's entry to the per-line view and reports what is wrong
// with the line on its own.
func (l *linter) checkLine(ln *parse.Line) {
	rep := l.rep
	lr := LineReport{Line: line32(ln.Num), Flags: lineFlags(ln.Flags)}
	if lr.Flags&LineDirective != 0 {
		switch ln.Kind {
		case parse.KeyUserAgent:
			lr.Tag = TagUserAgent
		case parse.KeyAllow:
			lr.Tag = TagAllow
		case parse.KeyDisallow:
			lr.Tag = TagDisallow
		case parse.KeySitemap:
			lr.Tag = TagSitemap
		default:
			if isUnusedKey(ln.Key) {
				lr.Tag = TagUnused
			}
		}
		if ln.Kind == parse.KeyUnknown {
			rep.UnusedDirectives++
		} else {
			rep.ValidDirectives++
		}
	}
	rep.Lines = append(rep.Lines, lr)
	rep.LastLine = ln.Num

	if l.firstText == 0 && lr.Flags&LineEmpty == 0 {
		l.firstText = ln.Num
		if l.html {
			l.add(ln.Num, CodeLooksLikeHTML, "the file looks like an HTML page, not robots.txt (an error page served with status 200?); Google finds no rules in it")
		}
	}
	if l.quiet {
		return
	}
	if lr.Flags&LineTooLong != 0 {
		if lr.Flags&(LineDirective|LineHasComment) == LineDirective {
			l.add(ln.Num, CodeLineTooLong, "line is longer than %d bytes; Google reads only the first %d, so the value becomes %s", parse.MaxLineBytes, parse.MaxLineBytes, quote(ln.Value))
		} else {
			l.addAs(ln.Num, SeverityInfo, CodeLineTooLong, "line is longer than %d bytes; Google drops the rest of it", parse.MaxLineBytes)
		}
	}
	if lr.Flags&LineDirective == 0 {
		if lr.Flags&(LineEmpty|LineComment) == 0 {
			l.add(ln.Num, CodeNotADirective, "line is not a directive (no \"key: value\"); Google ignores it")
		}
		return
	}
	l.checkDirective(ln)
}

// lineFlags returns the flags of the per-line view for the tokenizer's
// flags of a line: the same bits (both follow Google's LineMetadata), less
// the tokenizer's own.
func lineFlags(f parse.LineFlags) LineFlags {
	return LineFlags(f) & allLineFlags
}

func (l *linter) checkDirective(ln *parse.Line) {
	if ln.Flags&parse.LineMissingColon != 0 {
		l.add(ln.Num, CodeMissingColon, "no colon after %s; Google accepts white space instead, other crawlers may not", quote(ln.Key))
	}
	bom := strings.Contains(ln.Key, bomBytes) || strings.Contains(ln.Value, bomBytes)
	if bom {
		if ln.Kind == parse.KeyUnknown && strings.Contains(ln.Key, bomBytes) {
			l.add(ln.Num, CodeBOMMidFile, "a byte order mark (EF BB BF) inside the file is part of the key %s, which Google does not recognise; the line is ignored", quote(ln.Key))
		} else {
			l.add(ln.Num, CodeBOMMidFile, "a byte order mark (EF BB BF) inside the file is part of this line's value %s", quote(ln.Value))
		}
	}
	if !utf8.ValidString(ln.Key) || !utf8.ValidString(ln.Value) {
		l.add(ln.Num, CodeInvalidUTF8, "line is not valid UTF-8 (is the file in another encoding?); Google matches its bytes as they are, percent-encoded, which UTF-8 URLs do not match")
	}
	if ln.Kind == parse.KeyUnknown {
		if bom {
			return
		}
		lower := strings.ToLower(ln.Key)
		if isUnusedKey(ln.Key) {
			l.add(ln.Num, CodeUnusedKey, "Google ignores %s; other crawlers may use it", quote(lower))
			if lower == "crawl-delay" && !parse.IsDecimal(ln.Value) {
				l.add(ln.Num, CodeCrawlDelayInvalid, "crawl-delay %s is not a number of seconds", quote(ln.Value))
			}
			return
		}
		if isLicenseKey(ln.Key) {
			l.addAs(ln.Num, SeverityInfo, CodeUnknownKey, "Google ignores %s; crawlers that honour RSL 1.0 read it as the site's licence terms", quote(lower))
			return
		}
		if near := nearKey(lower); near != "" {
			l.add(ln.Num, CodeUnknownKey, "unknown key %s (%s?); Google ignores the line", quote(ln.Key), near)
		} else {
			l.add(ln.Num, CodeUnknownKey, "unknown key %s; Google ignores the line", quote(ln.Key))
		}
		return
	}
	spelling := parse.Spelling(ln.Key)
	if ln.Flags&parse.LineTypo != 0 {
		l.add(ln.Num, CodeKeyTypo, "%s is a misspelling of %s that Google accepts; other crawlers may not", quote(ln.Key), kindName(ln.Kind))
	}
	if len(ln.Key) > len(spelling) {
		l.add(ln.Num, CodeKeyPrefix, "key %s is read as %s only because it begins with %s; other crawlers may ignore it", quote(ln.Key), kindName(ln.Kind), quote(ln.Key[:len(spelling)]))
	}
	switch ln.Kind {
	case parse.KeyUserAgent:
		l.seenAgent = true
		l.checkAgent(ln)
	case parse.KeyAllow, parse.KeyDisallow:
		if !l.seenAgent {
			if ln.Value != "" {
				l.add(ln.Num, CodeRuleOutsideGroup, "%s comes before any user-agent line, so it belongs to no group; Google ignores it", ruleText(ln))
			}
			return
		}
		l.checkPattern(ln)
	case parse.KeySitemap:
		if ln.Value == "" {
			l.addAs(ln.Num, SeverityWarning, CodeSitemapNotAbsolute, "sitemap line without a URL")
		} else if !isAbsoluteHTTP(ln.Value) {
			l.add(ln.Num, CodeSitemapNotAbsolute, "sitemap %s is not an absolute http(s) URL (like https://example.com/sitemap.xml); Google ignores it", quote(ln.Value))
		}
	}
}

const bomBytes = "\xEF\xBB\xBF"

func kindName(k parse.KeyKind) string {
	switch k {
	case parse.KeyUserAgent:
		return "user-agent"
	case parse.KeyAllow:
		return "allow"
	case parse.KeyDisallow:
		return "disallow"
	case parse.KeySitemap:
		return "sitemap"
	}
	return "unknown"
}

func ruleText(ln *parse.Line) string {
	return ruleString(ln.Kind == parse.KeyAllow, ln.Value)
}

// nearKey returns the known key that a lower-cased unknown key is probably
// a misspelling of, or "".
func nearKey(key string) string {
	if len(key) > 16 {
		return ""
	}
	for _, k := range []string{"user-agent", "allow", "disallow", "sitemap"} {
		if d := editDistance(key, k); d > 0 && d <= 2 && len(key) > 3 {
			return k
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func isAbsoluteHTTP(v string) bool {
	var rest string
	switch {
	case parse.HasPrefixFold(v, "http://"):
		rest = v[len("http://"):]
	case parse.HasPrefixFold(v, "https://"):
		rest = v[len("https://"):]
	default:
		return false
	}
	return rest != "" && rest[0] != '/' && !strings.ContainsAny(rest, " \t")
}

func (l *linter) checkAgent(ln *parse.Line) {
	v := ln.Value
	switch {
	case v == "":
		l.add(ln.Num, CodeAgentTokenDiffers, "user-agent line with no name names no crawler")
	case parse.IsGlobalAgent(v):
		if v != "*" {
			l.add(ln.Num, CodeAgentTokenDiffers, "Google reads user-agent %s as \"*\", the global group", quote(v))
		}
	case v[0] == '*':
		l.add(ln.Num, CodeAgentNotGlobal, "user-agent %s is not the global group (only \"*\" alone is); Google reads it as an empty name that no crawler has", quote(v))
	default:
		if t := parse.ProductToken(v); t != v {
			if t == "" {
				l.add(ln.Num, CodeAgentTokenDiffers, "Google reads user-agent %s as an empty name that no crawler has: a name must start with a letter, '-' or '_'", quote(v))
			} else if v[len(t)] == '/' {
				b := append(l.msgBuf[:0], "Google reads user-agent "...)
				b = appendQuote(b, v)
				b = append(b, " as "...)
				b = appendQuote(b, t)
				l.msgBuf = append(b, ": the /version is ignored"...)
				l.addBuilt(ln.Num, SeverityInfo, CodeAgentTokenDiffers)
			} else {
				b := append(l.msgBuf[:0], "Google reads user-agent "...)
				b = appendQuote(b, v)
				b = append(b, " as "...)
				b = appendQuote(b, t)
				b = append(b, " (only letters, '-' and '_' count), so the group applies to crawlers named "...)
				l.msgBuf = appendQuote(b, t)
				l.addBuilt(ln.Num, severityOf(CodeAgentTokenDiffers), CodeAgentTokenDiffers)
			}
		}
	}
}

func (l *linter) checkPattern(ln *parse.Line) {
	v := ln.Value
	if v == "" {
		return
	}
	if v[0] != '/' && v[0] != '*' {
		if strings.Contains(v, "://") {
			l.add(ln.Num, CodePathNotAbsolute, "%s never matches: rules match the URL's path, so write the path (starting with '/') instead of a full URL", ruleText(ln))
		} else {
			l.add(ln.Num, CodePathNotAbsolute, "%s never matches: a path must start with '/' (or '*')", ruleText(ln))
		}
		return
	}
	if i := strings.IndexByte(v[:len(v)-1], '$'); i >= 0 {
		l.add(ln.Num, CodeDollarInMiddle, "'$' is special only at the end of a pattern; in %s it matches a literal '$'", ruleText(ln))
	}
	for i := 0; i+2 < len(v); i++ {
		if v[i] == '%' && pattern.IsHex(v[i+1]) && pattern.IsHex(v[i+2]) {
			if pattern.IsLowerHex(v[i+1]) || pattern.IsLowerHex(v[i+2]) {
				l.add(ln.Num, CodeLowercaseEscape, "Google upper-cases %s to %s; a URL with the lower-case escape does not match", quote(v[i:i+3]), quote(strings.ToUpper(v[i:i+3])))
				break
			}
			i += 2
		}
	}
	for i := 0; i < len(v); i++ {
		if v[i] >= 0x80 {
			if utf8.ValidString(v) {
				l.add(ln.Num, CodeNonASCIIPath, "non-ASCII path: Google matches it as %s, the percent-encoded UTF-8 that crawlers send", quote(pattern.Escape(v)))
			}
			break
		}
	}
}

func (l *linter) reportPastLimit() {
	p := l.past
	sev := SeverityInfo
	if p.directives > 0 || p.cutDiffers {
		sev = SeverityError
	}
	where := fmt.Sprintf("line %d and what follows are", p.cut.Num)
	if !p.atLineStart {
		where = fmt.Sprintf("line %d is cut there and what follows it is", p.cut.Num)
	}
	n := fmt.Sprintf("%d directives", p.directives)
	if p.directives == 1 {
		n = "1 directive"
	}
	l.addAs(p.cut.Num, sev, CodeContentPastLimit, "the file is %d bytes; Googlebot reads only the first %d: %s ignored (%s)", p.size, p.limit, where, n)
}

// isBinary reports whether the start of body is not text: it holds a NUL,
// or more than one byte in ten is a control byte other than white space.
// Text in any ASCII-compatible encoding has neither.
func isBinary(body string) bool {
	head := body[:min(len(body), 1024)]
	control := 0
	for i := 0; i < len(head); i++ {
		switch c := head[i]; {
		case c == 0:
			return true
		case c < 0x20 && !parse.IsSpace(c) || c == 0x7F:
			control++
		}
	}
	return control*10 > len(head)
}
