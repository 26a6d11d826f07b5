package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/parse"

// Licenses returns the values of the file's License lines, in file order:
// the URLs of the site's machine-readable licence terms under RSL 1.0
// (Really Simple Licensing, published 10 December 2025,
// https://rslstandard.org/guide/robots-txt). Like a sitemap line, a License
// line belongs to the whole file, whatever group it stands in. Empty values
// are skipped; the others are returned as written, not checked to be
// absolute URLs (package lint reports those that are not).
//
// The library does not fetch the licence file nor evaluate its terms: it
// has no effect on Allowed or Usage.
func (r *Robots) Licenses() []string {
	var out []string
	for _, f := range r.Fields() {
		if parse.EqualFold(f.Key, "license") && f.Value != "" {
			out = append(out, f.Value)
		}
	}
	return out
}
