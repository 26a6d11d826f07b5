package robotstxt_test

import (
	"fmt"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// The cases of Google's ID_VerifyValidUserAgentsToObey (robots_test.cc),
// and the agents users most often type instead of a token.
func TestValidAgent(t *testing.T) {
	tests := []struct {
		agent string
		want  bool
	}{
		{"Foobot", true},
		{"Foobot-Bar", true},
		{"Foo_Bar", true},
		{"", false},
		{"ツ", false},
		{"Foobot*", false},
		{" Foobot ", false},
		{"Foobot/2.1", false},
		{"Foobot Bar", false},
		{"Googlebot2", false},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", false},
		{"*", false},
		{"googlebot\x00", false},
	}
	for _, tt := range tests {
		if got := robotstxt.ValidAgent(tt.agent); got != tt.want {
			t.Errorf("ValidAgent(%q) = %v, want %v", tt.agent, got, tt.want)
		}
	}
}

// An agent that is not a product token is named by no group.
func TestInvalidAgentGetsGlobalGroup(t *testing.T) {
	r := robotstxt.Parse([]byte("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"))
	for _, agent := range []string{"Googlebot/2.1", "Mozilla/5.0 (compatible; Googlebot/2.1)"} {
		if a := r.Agent(agent); a.Specific() || !a.Allowed("https://example.com/x") {
			t.Errorf("%q: specific %v, allowed %v; want the * group", agent, a.Specific(), a.Allowed("https://example.com/x"))
		}
	}
}

func ExampleValidAgent() {
	robots := robotstxt.Parse([]byte("User-agent: Googlebot\nDisallow: /\n"))
	for _, agent := range []string{"Googlebot", "Googlebot/2.1"} {
		fmt.Println(agent, robotstxt.ValidAgent(agent), robots.Allowed(agent, "https://example.com/"))
	}
	// Output:
	// Googlebot true false
	// Googlebot/2.1 false true
}
