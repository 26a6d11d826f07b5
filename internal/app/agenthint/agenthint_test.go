package agenthint

import (
	"strings"
	"testing"
)

func TestWarning(t *testing.T) {
	tests := []struct {
		agent     string
		wantToken string // "" when no warning is wanted
		warn      bool
	}{
		{agent: "Googlebot"},
		{agent: "Googlebot-Image"},
		{agent: "Googlebot/2.1", wantToken: "Googlebot", warn: true},
		{agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", wantToken: "Googlebot", warn: true},
		{agent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116", wantToken: "bingbot", warn: true},
		{agent: "Mozilla/5.0 (X11; Linux x86_64)", wantToken: "Mozilla", warn: true},
		{agent: "Googlebot2", wantToken: "Googlebot", warn: true},
		{agent: "42bot", warn: true},
		{agent: "", warn: true},
		{agent: "  ", warn: true},
	}
	for _, tt := range tests {
		got := Warning(tt.agent)
		if (got != "") != tt.warn {
			t.Errorf("Warning(%q) = %q, want a warning: %v", tt.agent, got, tt.warn)
			continue
		}
		if tok := Token(tt.agent); tok != tt.wantToken && strings.TrimSpace(tt.agent) != "" && tt.warn {
			t.Errorf("Token(%q) = %q, want %q", tt.agent, tok, tt.wantToken)
		}
		if tt.wantToken != "" && !strings.Contains(got, `"`+tt.wantToken+`"`) {
			t.Errorf("Warning(%q) = %q does not name the token %q", tt.agent, got, tt.wantToken)
		}
		if tt.warn && strings.TrimSpace(tt.agent) != "" && !strings.Contains(got, "* group answers") {
			t.Errorf("Warning(%q) = %q does not say the * group answers", tt.agent, got)
		}
	}
}

// The file side, as Google's ExtractUserAgent reads a user-agent line.
