package robotstxt_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// specTestEnv names the directory of Google's robots.txt compliance tests
// (google/robotstxt-spec-test): textproto files under correctness/ and
// stress/.
const specTestEnv = "ROBOTSTXT_SPEC_TEST"

// A specCase is one robots.txt of the compliance tests with its
// expectations.
type specCase struct {
	file   string // the file's base name
	num    int    // the case's index in its file
	robots string
	expect []specExpectation
}

type specExpectation struct {
	url, agent string
	allowed    bool
	google     bool // test_type GOOGLE_SPECIFIC
}

// contractExceptions are the expectations that the wire-form contract (the
// package documentation) overrides: Google's tests hand the matcher a raw
// UTF-8 URL, while Allowed matches URLs in wire form, so the raw URL means
// its encoded form.
// Both are the same query, asked of two files.
var contractExceptions = map[string]bool{
	"non-ascii-paths.textproto|/foo/bar/ツ|FooBot": true,
}

func contractKey(file, url, agent string) string {
	path := reference.Path(url) // the raw path: the key names the URL as the test file writes it
	return file + "|" + path + "|" + agent
}

// TestSpecConformance checks every expectation of Google's compliance tests
// (but for contractExceptions).
func TestSpecConformance(t *testing.T) {
	total, passed, overridden := 0, 0, 0
	for _, c := range loadSpecCases(t) {
		robots := robotstxt.Parse([]byte(c.robots))
		for _, e := range c.expect {
			total++
			got := robots.Allowed(e.agent, e.url)
			want := e.allowed
			if contractExceptions[contractKey(c.file, e.url, e.agent)] {
				// Wire form: the raw URL is matched as its %-encoded form,
				// which these rules allow.
				want = !e.allowed
				overridden++
			}
			if got != want {
				t.Errorf("%s case %d: Allowed(%q, %q) = %v, want %v\nrobots.txt:\n%s",
					c.file, c.num, e.agent, e.url, got, want, c.robots)
				continue
			}
			passed++
		}
	}
	if total != 400 {
		t.Errorf("read %d expectations, want Google's 400", total)
	}
	if overridden != 2 {
		t.Errorf("%d expectations fell under contractExceptions, want 2", overridden)
	}
	t.Logf("%d of %d expectations hold as written; %d hold as contractExceptions restates them", passed-overridden, total, overridden)
}

// loadSpecCases returns every case of Google's compliance tests, from the
// directory named by $ROBOTSTXT_SPEC_TEST; it skips the test when that is
// unset.
func loadSpecCases(t *testing.T) []specCase {
	t.Helper()
	dir := os.Getenv(specTestEnv)
	if dir == "" {
		t.Skipf("%s is not set: this test reads Google's robots.txt conformance cases, the .textproto files of google/robotstxt-spec-test; get them with 'git clone https://github.com/google/robotstxt-spec-test DIR' and set %s=DIR (.ci/run uses ../shared/spec-test when present)", specTestEnv, specTestEnv)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.textproto"))
	if err != nil || len(files) == 0 {
		t.Skipf("no *.textproto files under %s=%s (err %v): the compliance cases are optional; TestComplianceCases checks the project's restatement of them", specTestEnv, dir, err)
	}
	var all []specCase
	for _, f := range files {
		cases, err := readSpecFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all = append(all, cases...)
	}
	return all
}

// readSpecFile reads one RobotsTxtSpecification in text format.
func readSpecFile(name string) ([]specCase, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	root, err := parseTextproto(string(data))
	if err != nil {
		return nil, err
	}
	var cases []specCase
	for i, tc := range root.messages("tests") {
		c := specCase{file: filepath.Base(name), num: i, robots: tc.str("robotstxt")}
		for _, e := range tc.messages("test_expectations") {
			outcome := e.str("expected_outcome")
			if outcome != "ALLOWED" && outcome != "DISALLOWED" {
				return nil, fmt.Errorf("expected_outcome %q", outcome)
			}
			c.expect = append(c.expect, specExpectation{
				url:     e.str("testurl"),
				agent:   e.str("useragent"),
				allowed: outcome == "ALLOWED",
				google:  e.str("test_type") == "GOOGLE_SPECIFIC",
			})
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// A tpMessage is a text-format protobuf message: each field name with its
// values, which are strings, enum names or messages.
type tpMessage map[string][]any

func (m tpMessage) str(name string) string {
	for _, v := range m[name] {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}

func (m tpMessage) messages(name string) []tpMessage {
	var out []tpMessage
	for _, v := range m[name] {
		if sub, ok := v.(tpMessage); ok {
			out = append(out, sub)
		}
	}
	return out
}

// parseTextproto reads the subset of the protobuf text format the
// compliance tests use: fields, nested messages, lists in brackets,
// adjacent string literals with C escapes, identifiers and # comments.
func parseTextproto(src string) (tpMessage, error) {
	p := &tpParser{src: src}
	m, err := p.message(0)
	if err != nil {
		return nil, fmt.Errorf("offset %d: %v", p.pos, err)
	}
	return m, nil
}

type tpParser struct {
	src string
	pos int
}

func (p *tpParser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			p.pos++
		default:
			return
		}
	}
}

// message reads fields until end (the closing byte, or 0 for end of input).
func (p *tpParser) message(end byte) (tpMessage, error) {
	m := tpMessage{}
	for {
		p.skip()
		if p.pos >= len(p.src) {
			if end != 0 {
				return nil, fmt.Errorf("missing %q", end)
			}
			return m, nil
		}
		if p.src[p.pos] == end {
			p.pos++
			return m, nil
		}
		name := p.ident()
		if name == "" {
			return nil, fmt.Errorf("expected a field name, found %q", p.src[p.pos])
		}
		p.skip()
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			p.pos++
			p.skip()
		}
		vals, err := p.values()
		if err != nil {
			return nil, fmt.Errorf("field %s: %v", name, err)
		}
		m[name] = append(m[name], vals...)
	}
}

// values reads one value or a bracketed list of values.
func (p *tpParser) values() ([]any, error) {
	if p.pos < len(p.src) && p.src[p.pos] == '[' {
		p.pos++
		var out []any
		for {
			p.skip()
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("missing ']'")
			}
			if p.src[p.pos] == ']' {
				p.pos++
				return out, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	v, err := p.value()
	return []any{v}, err
}

func (p *tpParser) value() (any, error) {
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("missing value")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		p.pos++
		return p.message('}')
	case c == '"' || c == '\'':
		var sb strings.Builder
		for p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '\'') {
			s, err := p.quoted()
			if err != nil {
				return nil, err
			}
			sb.WriteString(s)
			p.skip()
		}
		return sb.String(), nil
	default:
		if id := p.ident(); id != "" {
			return id, nil
		}
		return nil, fmt.Errorf("unexpected %q", c)
	}
}

func (p *tpParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c != '_' && c != '.' && c != '-' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

// The single-letter C escapes, and the bytes they stand for.
const (
	cEscapes = "nrtabfv"
	cEscaped = "\n\r\t\a\b\f\v"
)

// quoted reads one string literal with C escapes; \x and octal escapes
// produce raw bytes.
func (p *tpParser) quoted() (string, error) {
	quote := p.src[p.pos]
	p.pos++
	var b []byte
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch c {
		case quote:
			return string(b), nil
		case '\n':
			return "", fmt.Errorf("newline in string")
		case '\\':
			if p.pos >= len(p.src) {
				return "", fmt.Errorf("unfinished escape")
			}
			e := p.src[p.pos]
			p.pos++
			if i := strings.IndexByte(cEscapes, e); i >= 0 {
				b = append(b, cEscaped[i])
				continue
			}
			switch e {
			case 'x', 'X':
				n := 0
				for n < 2 && p.pos+n < len(p.src) && pattern.IsHex(p.src[p.pos+n]) {
					n++
				}
				if n == 0 {
					return "", fmt.Errorf(`\x without hex digits`)
				}
				v, _ := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 8)
				b = append(b, byte(v))
				p.pos += n
			case '0', '1', '2', '3', '4', '5', '6', '7':
				start := p.pos - 1
				for p.pos < len(p.src) && p.pos-start < 3 && '0' <= p.src[p.pos] && p.src[p.pos] <= '7' {
					p.pos++
				}
				v, err := strconv.ParseUint(p.src[start:p.pos], 8, 8)
				if err != nil {
					return "", fmt.Errorf("octal escape: %v", err)
				}
				b = append(b, byte(v))
			default: // \\, \", \', \?
				b = append(b, e)
			}
		default:
			b = append(b, c)
		}
	}
	return "", fmt.Errorf("unterminated string")
}
