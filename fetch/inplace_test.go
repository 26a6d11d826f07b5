package fetch

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
)

// withoutSpare keeps a body io.ReadAll left with up to an eighth of its
// length to spare, the same array, and copies one with more into an
// array of its size, which ParseOwned keeps.
func TestWithoutSpare(t *testing.T) {
	for _, tc := range []struct {
		len, cap int
		copied   bool
	}{{0, 0, false}, {80, 80, false}, {80, 90, false}, {80, 91, true}, {4000, 8192, true}} {
		body := make([]byte, tc.len, tc.cap)
		for i := range body {
			body[i] = byte('a' + i%26)
		}
		got := withoutSpare(body)
		copied := len(got) > 0 && &got[0] != &body[0]
		if copied != tc.copied || string(got) != string(body) || copied && cap(got) != len(got) {
			t.Errorf("len %d, cap %d: copied %v (cap %d), want copied %v, the same bytes", tc.len, tc.cap, copied, cap(got), tc.copied)
		}
	}
}

// A fetched entry is parsed in place: the parsed rules share its Body
// (one allocation, the Robots, where Parse would copy the body too), and
// answer as Parse of it does.
func TestEntryParsedInPlace(t *testing.T) {
	body := rules + strings.Repeat("Disallow: /section/page\n", 200)
	s := newSite(t, serve(body))
	c := &Client{}
	e, err := c.Entry(context.Background(), s.URL+"/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if string(e.Body) != body {
		t.Fatalf("entry body of %d bytes, served %d", len(e.Body), len(body))
	}
	if n := testing.AllocsPerRun(20, func() { parseEntry(e) }); n != 1 {
		t.Errorf("parseEntry: %v allocations, want 1 (the Robots, no copy of the body)", n)
	}
	got, want := parseEntry(e), robotstxt.Parse([]byte(body))
	for _, url := range []string{s.URL + "/private/x", s.URL + "/section/page", s.URL + "/"} {
		if diff := cmp.Diff(want.Explain("bot", url), got.Explain("bot", url)); diff != "" {
			t.Errorf("%s: (-Parse +parseEntry):\n%s", url, diff)
		}
	}
	// The memo counts the body once, the copy ParseOwned does not make
	// left out.
	spare := append(make([]byte, 0, 2*len(body)), body...)
	if kept, copied := parsedCost(e.Body), parsedCost(spare); copied-kept != len(body) {
		t.Errorf("parsedCost: %d for the body kept, %d for one copied; want %d apart", kept, copied, len(body))
	}
}
