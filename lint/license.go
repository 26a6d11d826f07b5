package lint

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// Lint's checks of License lines: RSL 1.0 (Really Simple Licensing, 10
// December 2025, https://rslstandard.org/guide/robots-txt) adds
// "License: <absolute URL>" to robots.txt, pointing to the site's
// machine-readable licence terms. Like Sitemap, the line belongs to no
// user agent; RSL asks every crawler to honour it.

// isLicenseKey reports whether key is "license", ignoring case.
func isLicenseKey(key string) bool {
	return len(key) == len("license") && strings.EqualFold(key, "license")
}

// licenseState tracks what a License line stands among.
type licenseState struct {
	groupLine int // the first user-agent line of the open group
	// groupLineAbove is the last user-agent or rule line since the last
	// blank or sitemap line, 0 if none: a License line with one above it
	// reads as part of that group.
	groupLineAbove int
}

// noteLicense follows the lines to know where each License line stands,
// and checks it.
func (l *linter) noteLicense(gl *parse.Grouped) {
	st := &l.license
	switch {
	case gl.Flags&parse.LineEmpty != 0:
		st.groupLineAbove = 0
	case gl.Flags&parse.LineHasDirective == 0:
		// a comment or a line that is not a directive: neutral
	case gl.Kind == parse.KeyUserAgent:
		if gl.NewGroup {
			st.groupLine = gl.Num
		}
		st.groupLineAbove = gl.Num
	case gl.Kind == parse.KeyAllow || gl.Kind == parse.KeyDisallow:
		if gl.Group >= 0 {
			st.groupLineAbove = gl.Num
		}
	case gl.Kind == parse.KeySitemap:
		st.groupLineAbove = 0 // the file's own lines, as a License is
	case gl.Kind == parse.KeyUnknown && isLicenseKey(gl.Key):
		l.checkLicense(gl)
	}
}

// checkLicense checks one License line: its value must be an absolute
// URL ("fully qualified, including the protocol and host", RSL 1.0), and
// a line written among a group's lines reads as if it were for that
// group's crawlers, which it is not.
func (l *linter) checkLicense(gl *parse.Grouped) {
	switch v := gl.Value; {
	case v == "":
		l.addAs(gl.Num, SeverityWarning, CodeLicenseNotAbsolute, "License line without a URL; RSL crawlers find no licence in it")
	case !isAbsoluteHTTP(v):
		l.add(gl.Num, CodeLicenseNotAbsolute, "License %s is not an absolute http(s) URL (like https://example.com/license.xml); RSL 1.0 requires the protocol and host", quote(v))
	}
	if gl.Group >= 0 && l.license.groupLineAbove > 0 {
		l.add(gl.Num, CodeLicenseInGroup, "License line among the lines of the group of line %d, but a License is global: it applies to every crawler, not only to this group's (to show that, put it before the first user-agent line or after a blank line)", l.license.groupLine)
	}
}
