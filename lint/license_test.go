package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLicenseDiagnostics checks License lines (RSL 1.0, "Adding RSL to
// robots.txt": "License: [absoluteURL]", a fully qualified URL with
// protocol and host; global, not tied to a user agent).
func TestLicenseDiagnostics(t *testing.T) {
	type at struct {
		Line     int
		Severity Severity
		Code     Code
	}
	info := func(line int) at { return at{line, SeverityInfo, CodeUnknownKey} }
	tests := []struct {
		name, data string
		want       []at
	}{
		{"RSL's example is clean", "License: https://example.com/license.xml\n\nUser-agent: Googlebot\nAllow: /\n", []at{info(1)}},
		{"after the groups, past a blank line", "User-agent: *\nDisallow: /x\n\nLicense: https://example.com/l.xml\n", []at{info(4)}},
		{"after a sitemap line", "User-agent: *\nDisallow: /x\nSitemap: https://example.com/s.xml\nLicense: https://example.com/l.xml\n", []at{info(4)}},
		{"before the next group, past a blank line", "User-agent: a\nDisallow: /\n\nLicense: https://example.com/l.xml\nUser-agent: b\nDisallow: /\n", []at{info(4)}},
		{"inside a group", "User-agent: GPTBot\nLicense: https://example.com/l.xml\nDisallow: /\n",
			[]at{info(2), {2, SeverityWarning, CodeLicenseInGroup}}},
		{"right after a group's rule", "User-agent: *\nDisallow: /x\n# terms\nlicense: https://example.com/l.xml\n",
			[]at{info(4), {4, SeverityWarning, CodeLicenseInGroup}}},
		{"relative", "License: /license.xml\nUser-agent: *\nDisallow:\n", []at{info(1), {1, SeverityError, CodeLicenseNotAbsolute}}},
		{"no scheme", "License: example.com/license.xml\n", []at{info(1), {1, SeverityError, CodeLicenseNotAbsolute}}},
		{"empty", "License:\n", []at{info(1), {1, SeverityWarning, CodeLicenseNotAbsolute}}},
		{"both", "User-agent: *\nLicense: license.xml\n", []at{info(2), {2, SeverityError, CodeLicenseNotAbsolute}, {2, SeverityWarning, CodeLicenseInGroup}}},
		{"a body that is not robots.txt says nothing of it", "<html>\nLicense: x\n", []at{{1, SeverityError, CodeLooksLikeHTML}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []at
			for _, d := range Lint([]byte(tt.data)).Diagnostics {
				if d.Message == "" {
					t.Errorf("diagnostic %+v without a message", d)
				}
				got = append(got, at{d.Line, d.Severity, d.Code})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
