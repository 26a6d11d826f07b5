package lint

import (
	"encoding/json"
	"testing"
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
	data, err = json.Marshal(LineReport{Line: 2, Tag: TagUnused, Directive: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"line":2,"tag":"unused","directive":true}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	var lr LineReport
	if err := json.Unmarshal(data, &lr); err != nil || lr.Tag != TagUnused {
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
