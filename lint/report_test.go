package lint

import (
	"encoding/json"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

func TestSeverityAndTagText(t *testing.T) {
	data, err := json.Marshal(Diagnostic{Line: 3, Severity: SeverityError, Code: CodePathNotAbsolute, Message: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"line":3,"severity":"error","code":"path-not-absolute","message":"m"}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	var d Diagnostic
	if err := json.Unmarshal(data, &d); err != nil || d.Severity != SeverityError {
		t.Errorf("round trip: %+v, %v", d, err)
	}
	data, err = json.Marshal(LineReport{Line: 2, Tag: TagUnused, Flags: LineDirective})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"line":2,"tag":"unused","directive":true}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	var lr LineReport
	if err := json.Unmarshal(data, &lr); err != nil || lr != (LineReport{Line: 2, Tag: TagUnused, Flags: LineDirective}) {
		t.Errorf("round trip: %+v, %v", lr, err)
	}
	if got := (Diagnostic{Line: 7, Severity: SeverityWarning, Code: "c", Message: "m"}).String(); got != "7: warning: m [c]" {
		t.Errorf("String: %q", got)
	}
	if Severity(9).String() != "severity(9)" || Tag(9).String() != "tag(9)" {
		t.Error("out-of-range names")
	}
	if _, err := Severity(9).MarshalText(); err == nil {
		t.Error("invalid severity marshals")
	}
	if _, err := Tag(9).MarshalText(); err == nil {
		t.Error("invalid tag marshals")
	}
	if err := new(Severity).UnmarshalText([]byte("fatal")); err == nil {
		t.Error("unknown severity unmarshals")
	}
	if err := new(Tag).UnmarshalText([]byte("crawl-delay")); err == nil {
		t.Error("unknown tag unmarshals")
	}
}

func TestReportCounts(t *testing.T) {
	rep := Lint([]byte("Disallow: /x\nUser-agent: *\nCrawl-delay: 1\nDisallow: y\n"))
	if rep.Count(SeverityError) != 2 || rep.Count(SeverityInfo) != 1 || !rep.HasErrors() {
		t.Errorf("counts: %d errors, %d infos; %v", rep.Count(SeverityError), rep.Count(SeverityInfo), rep.Diagnostics)
	}
	if Lint(nil).HasErrors() || len(Lint(nil).Lines) != 1 {
		t.Error("an empty file has one empty line and no errors")
	}
}

// FuzzLint checks that any input lints without panicking, with the per-line
// view in step with the tokenizer on the bytes within the limit.

// A LineReport's JSON is that of a struct with one omitempty bool per
// flag, as it was before the flags shared a byte, and decodes back to the
// same LineReport; String names the flags as the JSON does.
func TestLineReportJSON(t *testing.T) {
	type spelledOut struct {
		Line         int32 `json:"line"`
		Tag          Tag   `json:"tag"`
		Typo         bool  `json:"typo,omitempty"`
		Empty        bool  `json:"empty,omitempty"`
		Comment      bool  `json:"comment,omitempty"`
		HasComment   bool  `json:"has_comment,omitempty"`
		Directive    bool  `json:"directive,omitempty"`
		MissingColon bool  `json:"missing_colon,omitempty"`
		TooLong      bool  `json:"too_long,omitempty"`
	}
	for tag := TagUnknown; tag <= TagUnused; tag++ {
		for f := LineFlags(0); f < 1<<7; f++ {
			lr := LineReport{Line: int32(f)*1000 + int32(tag), Tag: tag, Flags: f}
			got, err := json.Marshal(lr)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(spelledOut{lr.Line, tag, f&LineTypo != 0, f&LineEmpty != 0, f&LineComment != 0,
				f&LineHasComment != 0, f&LineDirective != 0, f&LineMissingColon != 0, f&LineTooLong != 0})
			if string(got) != string(want) {
				t.Fatalf("%+v: got %s, want %s", lr, got, want)
			}
			var back LineReport
			if err := json.Unmarshal(got, &back); err != nil || back != lr {
				t.Fatalf("%s decodes to %+v, %v; want %+v", got, back, err, lr)
			}
		}
	}
	if _, err := json.Marshal(LineReport{Tag: 9}); err == nil {
		t.Error("a line with an invalid tag marshals")
	}
	if got := (LineDirective | LineHasComment | 0x80).String(); got != "has_comment|directive|0x80" {
		t.Errorf("String: %q", got)
	}
	if got := LineFlags(0).String(); got != "" {
		t.Errorf("String of no flags: %q", got)
	}
}

// The per-line view's flags are the tokenizer's, bit for bit, less the
// tokenizer's own LineMayEscape: lineFlags converts by masking.
func TestLineFlagsMatchTokenizer(t *testing.T) {
	for _, m := range []struct {
		from parse.LineFlags
		to   LineFlags
	}{
		{parse.LineEmpty, LineEmpty},
		{parse.LineHasComment, LineHasComment},
		{parse.LineIsComment, LineComment},
		{parse.LineHasDirective, LineDirective},
		{parse.LineTypo, LineTypo},
		{parse.LineTooLong, LineTooLong},
		{parse.LineMissingColon, LineMissingColon},
		{parse.LineMayEscape, 0},
	} {
		if got := lineFlags(m.from); got != m.to {
			t.Errorf("lineFlags(%#x) = %v, want %v", m.from, got, m.to)
		}
	}
}
