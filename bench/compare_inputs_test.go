package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed50c7eacc/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// TestRequestPath checks what the benchmarks hand temoto: the path and
// query of the URL, as a crawler would extract them.
func TestRequestPath(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://example.com/", "/"},
		{"https://example.com", "/"},
		{"https://example.com/a/b?q=1", "/a/b?q=1"},
		{"http://example.com:8080/x%20y", "/x%20y"},
		{"://bad", "/"},
	}
	for _, tt := range tests {
		if got := requestPath(tt.url); got != tt.want {
			t.Errorf("requestPath(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestLibrariesAgreeOnPlainRules checks that the comparison is like for
// like: on plain prefix rules, where RFC 9309 leaves no room for reading,
// both libraries answer every benchmark-style question the same way, so
// the timings compare the same work.
func TestLibrariesAgreeOnPlainRules(t *testing.T) {
	file := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: BadBot\nDisallow: /\n")
	ours := robotstxt.Parse(file)
	theirs, err := temoto.FromBytes(file)
	if err != nil {
		t.Fatalf("temoto.FromBytes: %v", err)
	}
	var gotOurs, gotTheirs []bool
	for _, agent := range []string{"Googlebot", "BadBot"} {
		for _, u := range []string{
			"https://example.com/",
			"https://example.com/private/x",
			"https://example.com/private/press/x",
			"https://example.com/public?q=1",
		} {
			gotOurs = append(gotOurs, ours.Allowed(agent, u))
			gotTheirs = append(gotTheirs, theirs.TestAgent(requestPath(u), agent))
		}
	}
	want := []bool{true, false, true, true, false, false, false, false}
	if diff := cmp.Diff(want, gotOurs); diff != "" {
		t.Errorf("robotstxt answers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, gotTheirs); diff != "" {
		t.Errorf("temoto answers (-want +got):\n%s", diff)
	}
}

// TestCrawlerQueries checks that the workload the benchmarks time is made
// of the corpus's own agents and URLs (it skips without the corpus).
func TestCrawlerQueries(t *testing.T) {
	files := loadCorpus(t)
	qs := crawlerQueries(t, files)
	if len(qs) < len(files) {
		t.Errorf("%d queries for %d files: expected several per file", len(qs), len(files))
	}
	for _, q := range qs[:min(len(qs), 1000)] {
		if q.ours == nil || q.agent == "" || q.url == "" {
			t.Fatalf("incomplete query %+v", q)
		}
	}
}
