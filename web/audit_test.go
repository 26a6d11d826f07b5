package web

import "testing"

// TestAudit checks the page's audit on a file that blocks one AI crawler
// and states a training preference for the others.
func TestAudit(t *testing.T) {
	rep, err := Audit("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n", "\n https://example.com/a \n\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.URLs) != 1 || rep.URLs[0] != "https://example.com/a" {
		t.Fatalf("URLs = %q, want the one URL trimmed", rep.URLs)
	}
	for _, c := range rep.Crawlers {
		switch c.Name {
		case "GPTBot":
			if c.Results[0].Allowed {
				t.Errorf("GPTBot allowed")
			}
		case "ClaudeBot":
			if r := c.Results[0]; !r.Allowed || r.Usage.TrainAI.Line != 3 {
				t.Errorf("ClaudeBot = %+v, want allowed with train-ai from line 3", r)
			}
		}
	}
	if rep, _ := Audit("", ""); len(rep.URLs) != 1 || rep.URLs[0] != "/" {
		t.Errorf("no URLs: audit of %q, want the site root", rep.URLs)
	}
}
