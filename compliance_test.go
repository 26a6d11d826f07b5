package robotstxt_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// testdata/compliance-cases.txt restates the 400 expectations of Google's
// robots.txt compliance cases (github.com/google/robotstxt-spec-test) as
// this project's data: each case's robots.txt file, and for each
// expectation the agent, the URL and the answer, with the rule of RFC 9309
// or of Google's robots.txt documentation
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt)
// the case illustrates, in this project's words. TestComplianceCases
// checks the library against it with nothing outside the repository; with
// ROBOTSTXT_SPEC_TEST set, TestComplianceCasesRestated checks that it says
// what the original files say, and -update writes it again from them.
//
// Format, one item a line: "case FILE INDEX", "rule TEXT", "robots
// QUOTED" (a Go string literal), then "expect ALLOWED|DISALLOWED AGENT
// URL [google-specific] [contract=ALLOWED|DISALLOWED]" with AGENT and URL
// quoted. contract= gives the answer of the library's contract where it
// differs from the case's: Allowed matches the URL as a crawler sends it,
// its bytes >= 0x80 percent-encoded, while those cases hand the raw bytes
// to the matcher.
const complianceFile = "testdata/compliance-cases.txt"

// A ccCase is one robots.txt file of the compliance cases with its
// expectations.
type ccCase struct {
	File   string // directory and name without .textproto, "correctness/groups"
	Index  int    // the case's place in its file
	Rule   string
	Robots string
	Expect []ccExpect
}

type ccExpect struct {
	Allowed        bool
	Agent, URL     string
	GoogleSpecific bool
	Contract       string // "", "ALLOWED" or "DISALLOWED"
}

// ccRules says, for each file of the compliance cases, which rule its
// cases illustrate.
var ccRules = map[string]string{
	"correctness/BOM-characters":                "a UTF-8 byte-order mark at the start of the file is skipped, also in part (RFC 9309 2.2: the file is UTF-8; Google: an initial BOM is ignored)",
	"correctness/accepted-mistakes":             "a key followed by whitespace instead of the colon is still read (Google's library); a line with a key no crawler knows has no effect (RFC 9309 2.2.4)",
	"correctness/different-line-endings":        "lines end with CR, LF or CR LF (RFC 9309 2.2, the EOL production)",
	"correctness/directives-case-insensitivity": "field names are case-insensitive (RFC 9309 2.2: user-agent, allow, disallow are matched without case)",
	"correctness/empty-string":                  "an empty file allows everything; an empty URL stands for the path /; the empty agent is named by no group (Google's library; RFC 9309 2.2.1, 2.2.2)",
	"correctness/global-rules":                  "a crawler named by no group obeys the groups of user-agent *, and with none of them nothing applies (RFC 9309 2.2.1)",
	"correctness/groups":                        "a group is its user-agent lines and the rules up to the next user-agent line after a rule; groups naming the same crawler are merged; rules before any user-agent line belong to no group (RFC 9309 2.1, 2.2.1)",
	"correctness/index-page":                    "Google reads allow of a path ending in index.htm... as also allowing the directory it is in (Google's library)",
	"correctness/matching-path-values-1":        "path matching: prefix match from the start of the path, * for any run of characters, $ for the end of the URL, matched with case (Google: URL matching based on path values; RFC 9309 2.2.2, 2.2.3)",
	"correctness/matching-path-values-2":        "path matching: prefix match from the start of the path, * for any run of characters, $ for the end of the URL, matched with case (Google: URL matching based on path values; RFC 9309 2.2.2, 2.2.3)",
	"correctness/most-specific-match":           "the matching rule with the longest path wins; on equal length allow wins (RFC 9309 2.2.2; Google: order of precedence for rules)",
	"correctness/non-ascii-paths":               "bytes outside US-ASCII in rules and URLs are compared percent-encoded (RFC 9309 2.2.2)",
	"correctness/order-of-precedence":           "among the rules of the crawler's group the longest matching path wins, wherever it is in the group; on equal length allow wins; * and $ count toward the length (Google: order of precedence for rules; RFC 9309 2.2.2)",
	"correctness/special-characters":            "# starts a comment, $ ends a pattern, * matches any run of characters (RFC 9309 2.2.3)",
	"correctness/uri-case-sensitivity":          "the path of a rule is matched with case (RFC 9309 2.2.2)",
	"correctness/user-agent-name":               "a user-agent line names the crawler by the product token it starts with (letters, - and _), compared without case; a caller's string that is no such token matches no group (RFC 9309 2.2.1; Google: the value is read up to the first character outside the token)",
}

// ccStressRule is the rule the stress cases, real-world files, illustrate.
const ccStressRule = "a real-world file: group selection by product token (RFC 9309 2.2.1) and the longest matching rule (RFC 9309 2.2.2) together"

// ccContract lists the expectations whose answer differs under the
// library's contract: file, agent and URL as the case writes it.
var ccContract = map[[3]string]string{
	{"correctness/non-ascii-paths", "FooBot", "http://foo.bar/foo/bar/ツ"}: "",
}

func ccRuleFor(file string) string {
	if r, ok := ccRules[file]; ok {
		return r
	}
	if strings.HasPrefix(file, "stress/") {
		return ccStressRule
	}
	return ""
}

// TestComplianceCases checks every restated expectation: Allowed, Explain
// and an Agent give the recorded answer (or the contract's, where it
// differs), and the data is all there: 400 expectations, 2 under the
// contract, every case with its rule.
func TestComplianceCases(t *testing.T) {
	cases, err := ccRead(complianceFile)
	if err != nil {
		t.Fatal(err)
	}
	total, googleSpecific, contract := 0, 0, 0
	for _, c := range cases {
		if c.Rule == "" {
			t.Errorf("%s case %d: no rule named", c.File, c.Index)
		}
		robots := robotstxt.Parse([]byte(c.Robots))
		for _, e := range c.Expect {
			total++
			want := e.Allowed
			if e.GoogleSpecific {
				googleSpecific++
			}
			if e.Contract != "" {
				contract++
				want = e.Contract == "ALLOWED"
			}
			if got := robots.Allowed(e.Agent, e.URL); got != want {
				t.Errorf("%s case %d (%s): Allowed(%q, %q) = %v, want %v\nrobots.txt: %q", c.File, c.Index, c.Rule, e.Agent, e.URL, got, want, c.Robots)
			}
			if got := robots.Explain(e.Agent, e.URL).Allowed; got != want {
				t.Errorf("%s case %d: Explain(%q, %q).Allowed = %v, want %v", c.File, c.Index, e.Agent, e.URL, got, want)
			}
			if got := robots.Agent(e.Agent).Allowed(e.URL); got != want {
				t.Errorf("%s case %d: Agent(%q).Allowed(%q) = %v, want %v", c.File, c.Index, e.Agent, e.URL, got, want)
			}
		}
	}
	if total != 400 || contract != 2 || len(cases) != 80 {
		t.Errorf("%s: %d cases, %d expectations, %d under the contract; want Google's 80 and 400, and 2", complianceFile, len(cases), total, contract)
	}
	t.Logf("%d expectations of %d compliance cases hold (%d Google-specific; %d as the wire-form contract restates them)", total, len(cases), googleSpecific, contract)
}

// TestComplianceCasesRestated checks the restatement against Google's
// original files, when ROBOTSTXT_SPEC_TEST names them; with -update it
// writes the restatement again.
func TestComplianceCasesRestated(t *testing.T) {
	dir := os.Getenv("ROBOTSTXT_SPEC_TEST")
	if dir == "" {
		if *trUpdateTranscript {
			t.Fatalf("-update needs ROBOTSTXT_SPEC_TEST to write %s", complianceFile)
		}
		t.Skipf("ROBOTSTXT_SPEC_TEST is not set: %s is checked against its source only where google/robotstxt-spec-test is at hand (optional; 'git clone https://github.com/google/robotstxt-spec-test DIR' and set ROBOTSTXT_SPEC_TEST=DIR)", complianceFile)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.textproto"))
	if len(files) == 0 {
		t.Skipf("no *.textproto files under ROBOTSTXT_SPEC_TEST=%s (optional)", dir)
	}
	var orig []ccCase
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		cs, err := ccReadTextproto(f, strings.TrimSuffix(filepath.ToSlash(rel), ".textproto"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		orig = append(orig, cs...)
	}
	slices.SortStableFunc(orig, func(a, b ccCase) int { return strings.Compare(a.File, b.File) })
	if *trUpdateTranscript {
		if err := ccWrite(complianceFile, orig); err != nil {
			t.Fatal(err)
		}
		return
	}
	restated, err := ccRead(complianceFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(orig, restated); diff != "" {
		t.Errorf("%s differs from the cases under %s (-original +restated):\n%s", complianceFile, dir, diff)
	}
}

func ccWrite(name string, cases []ccCase) error {
	var b strings.Builder
	b.WriteString("# The 400 expectations of Google's robots.txt compliance cases\n" +
		"# (github.com/google/robotstxt-spec-test), restated as this project's data.\n" +
		"# Written by go test -run TestComplianceCasesRestated -update with\n" +
		"# ROBOTSTXT_SPEC_TEST set; the format is described in compliance_test.go.\n")
	for _, c := range cases {
		fmt.Fprintf(&b, "\ncase %s %d\nrule %s\nrobots %s\n", c.File, c.Index, c.Rule, strconv.Quote(c.Robots))
		for _, e := range c.Expect {
			v := "DISALLOWED"
			if e.Allowed {
				v = "ALLOWED"
			}
			fmt.Fprintf(&b, "expect %s %s %s", v, strconv.Quote(e.Agent), strconv.Quote(e.URL))
			if e.GoogleSpecific {
				b.WriteString(" google-specific")
			}
			if e.Contract != "" {
				b.WriteString(" contract=" + e.Contract)
			}
			b.WriteByte('\n')
		}
	}
	return os.WriteFile(name, []byte(b.String()), 0o644)
}

func ccRead(name string) ([]ccCase, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []ccCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for num := 1; sc.Scan(); num++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		fail := func(err error) ([]ccCase, error) { return nil, fmt.Errorf("%s:%d: %v", name, num, err) }
		if key != "case" && len(cases) == 0 {
			return fail(fmt.Errorf("%s before the first case", key))
		}
		switch key {
		case "case":
			file, index, _ := strings.Cut(rest, " ")
			i, err := strconv.Atoi(index)
			if err != nil {
				return fail(err)
			}
			cases = append(cases, ccCase{File: file, Index: i})
		case "rule":
			cases[len(cases)-1].Rule = rest
		case "robots":
			s, err := strconv.Unquote(rest)
			if err != nil {
				return fail(err)
			}
			cases[len(cases)-1].Robots = s
		case "expect":
			verdict, rest, _ := strings.Cut(rest, " ")
			if verdict != "ALLOWED" && verdict != "DISALLOWED" {
				return fail(fmt.Errorf("verdict %q", verdict))
			}
			e := ccExpect{Allowed: verdict == "ALLOWED"}
			for _, s := range []*string{&e.Agent, &e.URL} {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return fail(err)
				}
				*s, _ = strconv.Unquote(q)
				rest = strings.TrimPrefix(rest[len(q):], " ")
			}
			for _, flag := range strings.Fields(rest) {
				switch {
				case flag == "google-specific":
					e.GoogleSpecific = true
				case flag == "contract=ALLOWED" || flag == "contract=DISALLOWED":
					e.Contract = strings.TrimPrefix(flag, "contract=")
				default:
					return fail(fmt.Errorf("flag %q", flag))
				}
			}
			c := &cases[len(cases)-1]
			c.Expect = append(c.Expect, e)
		default:
			return fail(fmt.Errorf("key %q", key))
		}
	}
	return cases, sc.Err()
}

// ccReadTextproto reads one file of the compliance cases: the protobuf
// text format as those files use it (fields, lists in brackets, nested
// messages, adjacent string literals with C escapes, # comments). Only
// the facts of each case are kept.
func ccReadTextproto(name, file string) ([]ccCase, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	root, err := parseTextproto(string(data))
	if err != nil {
		return nil, err
	}
	var cases []ccCase
	for i, tc := range root.messages("tests") {
		c := ccCase{File: file, Index: i, Rule: ccRuleFor(file), Robots: tc.str("robotstxt")}
		for _, e := range tc.messages("test_expectations") {
			outcome := e.str("expected_outcome")
			if outcome != "ALLOWED" && outcome != "DISALLOWED" {
				return nil, fmt.Errorf("expected_outcome %q", outcome)
			}
			x := ccExpect{
				Allowed:        outcome == "ALLOWED",
				Agent:          e.str("useragent"),
				URL:            e.str("testurl"),
				GoogleSpecific: e.str("test_type") == "GOOGLE_SPECIFIC",
			}
			if _, ok := ccContract[[3]string{file, x.Agent, x.URL}]; ok {
				// Under the contract Google's matcher sees the URL
				// percent-encoded, and so does the rule: the two match.
				x.Contract = map[bool]string{true: "DISALLOWED", false: "ALLOWED"}[x.Allowed]
			}
			c.Expect = append(c.Expect, x)
		}
		cases = append(cases, c)
	}
	return cases, nil
}
