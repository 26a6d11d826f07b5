package aipref

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestByteSequenceKeepsTheLine checks that a byte sequence without "="
// padding or with non-zero pad bits, which RFC 9651 section 4.2.7 says
// parsers SHOULD NOT fail on, no longer makes every category of its line
// unknown.
func TestByteSequenceKeepsTheLine(t *testing.T) {
	for _, v := range []string{
		"train-ai=n, search=y, x=:aGVsbG8:",
		"train-ai=n, search=y, x=:iZ==:",
		"train-ai=n, search=y;p=:aGVsbA:",
	} {
		u := ParseUsage(v)
		if u.Err != nil || u.TrainAI != Disallow || u.Search != Allow {
			t.Errorf("ParseUsage(%q) = %+v, want train-ai disallow, search allow", v, u)
		}
	}
	s := ParseSignal("ai-train=no, search=yes, x=:aGVsbG8:")
	if s.Err != nil || s.AITrain != Disallow || s.Search != Allow {
		t.Errorf("ParseSignal = %+v, want ai-train disallow, search allow", s)
	}
	if u := ParseUsage("train-ai=n, x=:aGVsbG8==:"); u.Err == nil || u.TrainAI != Unknown {
		t.Errorf("too much padding: ParseUsage = %+v, want a parse error and all unknown", u)
	}
}

// TestCitesCurrentDrafts checks that the package and docs/aipref.md name the
// vocabulary draft that is current, draft-ietf-aipref-vocab-08 (14
// September 2026, which superseded -07 of 19 August 2026), and its
// sections 4.2 (AI Use, label ai-use) and 4.3 (Search).
func TestCitesCurrentDrafts(t *testing.T) {
	for _, file := range []string{"aipref.go", "../../docs/aipref.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"draft-ietf-aipref-vocab-08", "ai-use", "section 4.2", "section 4.3"} {
			if !strings.Contains(string(data), s) {
				t.Errorf("%s does not cite %q: vocab-08's AI Use is section 4.2, its Search (which overrides the other categories) 4.3", file, s)
			}
		}
	}
}

// TestParseUsageVocab08 checks ParseUsage against the three categories of
// draft-ietf-aipref-vocab-08 (section 6.1): train-ai (section 4.1), ai-use
// (section 4.2, new in -08) and search (section 4.3), read by the
// processing algorithm of section 6.5.
func TestParseUsageVocab08(t *testing.T) {
	type result struct {
		Path                   string
		TrainAI, AIUse, Search Pref
		Others                 []string // keys
		Failed                 bool
	}
	tests := []struct {
		name, in string
		want     result
	}{
		{"section 6: all three", "train-ai=n, ai-use=n, search=y", result{TrainAI: Disallow, AIUse: Disallow, Search: Allow}},
		{"section 4.2: ai-use alone", "ai-use=y", result{AIUse: Allow}},
		{"path-scoped", "/docs/ ai-use=n", result{Path: "/docs/", AIUse: Disallow}},
		{"section 6.5: value not y or n", "ai-use=yes", result{}},
		{"section 6.5: string value", `ai-use="n"`, result{}},
		{"section 6.5: bare key is a Boolean", "ai-use", result{}},
		{"section 6.5: inner list", "ai-use=(n)", result{}},
		{"section 6.5.1: last value wins", "ai-use=n, ai-use=y", result{AIUse: Allow}},
		{"section 6.5.1: last value not a token", "ai-use=n, ai-use", result{}},
		{"section 6.5.1: upper case fails the parse", "AI-Use=n, search=y", result{Failed: true}},
		{"section 6.5.2: parameters ignored", "ai-use=n;reason=x", result{AIUse: Disallow}},
		{"section 6.4: unknown labels kept apart", "ai-use=n, ai-input=n, train-genai=n", result{AIUse: Disallow, Others: []string{"ai-input", "train-genai"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := ParseUsage(tt.in)
			got := result{Path: u.Path, TrainAI: u.TrainAI, AIUse: u.AIUse, Search: u.Search, Failed: u.Err != nil}
			for _, m := range u.Others {
				got.Others = append(got.Others, m.Key)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseUsage(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestNoVocab07Sections checks that no code, comment or document of the
// repository cites a section of draft-ietf-aipref-vocab-07 as the
// operative reference: the library follows vocab-08, whose sections
// differ (AI Use is section 4.2 and Search 4.3, where -07 had Search at
// 4.2; Alternative Formats moved from 6.6 to 7). Naming -07 as the
// version that -08 superseded is fine.
func TestNoVocab07Sections(t *testing.T) {
	cites07 := regexp.MustCompile(`(?i)(vocab-07|-07)[,;:)]?\s+(sections?|§)\s*\d`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "artifacts":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".js", ".mjs", ".html":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if cites07.MatchString(line) {
				t.Errorf("%s:%d cites a vocab-07 section: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
