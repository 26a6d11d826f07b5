package aipref

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitUsageValue checks how a Content-Usage value divides into path
// and preference (draft-ietf-aipref-attach-05 section 3.2).
func TestSplitUsageValue(t *testing.T) {
	tests := []struct{ in, path, pref string }{
		{"train-ai=n", "", "train-ai=n"},
		{"/ai-ok/ train-ai=y", "/ai-ok/", "train-ai=y"},
		{"/a \t  train-ai=y, search=n", "/a", "train-ai=y, search=n"},
		{"/a\ttrain-ai=y", "/a", "train-ai=y"},
		{"/only-a-path", "/only-a-path", ""},
		{"  train-ai=n  ", "", "train-ai=n"},
		{"train-ai=n # note", "", "train-ai=n"},
		{"/a train-ai=n\r\nmore", "/a", "train-ai=n"},
		{"a/b train-ai=n", "", "a/b train-ai=n"}, // no leading '/': no path; the preference fails to parse
		{"*.pdf train-ai=n", "", "*.pdf train-ai=n"},
		{"", "", ""},
	}
	for _, tt := range tests {
		path, pref := SplitUsageValue(tt.in)
		if diff := cmp.Diff([2]string{tt.path, tt.pref}, [2]string{path, pref}); diff != "" {
			t.Errorf("SplitUsageValue(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestCheckUsageValue checks the problems one value has on its own.
func TestCheckUsageValue(t *testing.T) {
	tests := []struct {
		name, directive, value string
		want                   []string // codes
	}{
		{"attach-05 example is clean", "Content-Usage", "/ai-ok/ train-ai=y", nil},
		{"vocab-08 section 6 example is clean", "Content-Usage", "train-ai=y, search=n", nil},
		{"vocab-08 section 6.1: ai-use is a label of the vocabulary", "Content-Usage", "train-ai=n, ai-use=n, search=y", nil},
		{"vocab-08 section 6.2: ai-use takes y or n", "Content-Usage", "ai-use=no", []string{ProblemBadValue}},
		{"vocab-08 section 6.5.1: ai-use repeated", "Content-Usage", "ai-use=y, ai-use=n", []string{ProblemRepeatedKey}},
		{"Content-Signal's ai-input in a Content-Usage line", "Content-Usage", "ai-input=n", []string{ProblemUnknownKey}},
		{"vocab-08 section 6.5.1: repeated keys, values not tokens", "Content-Usage", `train-ai=y, train-ai, search=n, search="n"`,
			[]string{ProblemRepeatedKey, ProblemBadValue, ProblemRepeatedKey, ProblemBadValue}},
		{"vocab-08 section 6.5.1: upper case fails the parse", "Content-Usage", "Train-AI=n", []string{ProblemMalformed}},
		{"vocab-08 section 6.4: unknown label", "Content-Usage", "train-ai=n, train-genai=n", []string{ProblemUnknownKey}},
		{"Content-Signal values in a Content-Usage line", "Content-Usage", "train-ai=no", []string{ProblemBadValue}},
		{"path without a slash", "Content-Usage", "private/ train-ai=n", []string{ProblemPathNoSlash}},
		{"wildcard path without a slash", "Content-Usage", "*.pdf train-ai=n", []string{ProblemPathNoSlash}},
		{"a path and no preference", "Content-Usage", "/private/", []string{ProblemEmpty}},
		{"trailing comma", "Content-Usage", "train-ai=n,", []string{ProblemMalformed}},
		{"contentsignals.org example is clean", "Content-Signal", "search=yes, ai-train=no", nil},
		{"Cloudflare managed file: use is not one of the three signals", "Content-Signal", "search=yes,ai-train=no,use=reference", []string{ProblemUnknownKey}},
		{"Content-Usage values in a Content-Signal line", "Content-Signal", "ai-train=n", []string{ProblemBadValue}},
		{"vocab label in a Content-Signal line", "Content-Signal", "train-ai=no", []string{ProblemUnknownKey}},
		{"vocab-08's ai-use in a Content-Signal line", "Content-Signal", "ai-use=no", []string{ProblemUnknownKey}},
		{"Content-Signal with a path", "Content-Signal", "/blog/ ai-train=no", []string{ProblemSignalPath}},
		{"Content-Signal with spaces instead of commas", "Content-Signal", "search=yes ai-train=no", []string{ProblemMalformed}},
		{"empty Content-Signal", "Content-Signal", "", []string{ProblemEmpty}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := CheckUsageValue
			if tt.directive == "Content-Signal" {
				check = CheckSignalValue
			}
			var got []string
			for _, p := range check(7, tt.value) {
				if p.Line != 7 || p.Msg == "" {
					t.Errorf("problem %+v: wrong line or no message", p)
				}
				got = append(got, p.Code)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: %q mismatch (-want +got):\n%s", tt.directive, tt.value, diff)
			}
		})
	}
}

// FuzzCheckValue checks that any value splits, parses and checks without
// panicking, that the path never holds white space, and that every
// problem is complete.
func FuzzCheckValue(f *testing.F) {
	for _, s := range []string{"train-ai=n", "/ai-ok/ train-ai=y", "/a\ttrain-ai=y, search=n;x=1", "search=yes, ai-train=no",
		"train-ai=y, train-ai, search=n, search=\"n\"", "/\u00e4 train-ai=n # c", "private/ train-ai=n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path, pref := SplitUsageValue(s)
		if strings.ContainsAny(path, " \t\r\n#") || path != "" && path[0] != '/' {
			t.Fatalf("SplitUsageValue(%q) path %q", s, path)
		}
		if strings.ContainsAny(pref, "\r\n#") {
			t.Fatalf("SplitUsageValue(%q) preference %q runs past the value", s, pref)
		}
		for _, p := range append(CheckUsageValue(3, s), CheckSignalValue(3, s)...) {
			if p.Line != 3 || p.Code == "" || p.Msg == "" {
				t.Fatalf("check of %q: incomplete problem %+v", s, p)
			}
		}
		if u := ParseUsage(s); u.Err != nil && (u.TrainAI != Unknown || u.AIUse != Unknown || u.Search != Unknown || u.Others != nil) {
			t.Fatalf("ParseUsage(%q) failed but knows something: %+v", s, u)
		}
	})
}
