package robotstxt

// A Rule is an allow or disallow line of a group.
//
// Its pattern is matched against a URL's path, parameters and query in
// wire form (see the package documentation), as Google's matcher does and
// RFC 9309 section 2.2.2 describes: a plain pattern matches the paths it
// starts, '*' matches any run of bytes, and a final '$' anchors the end. The
// longest matching pattern in wire form decides, allow winning a tie; an
// "allow" of ".../index.htm..." also allows its directory, as Google's
// does.
type Rule struct {
	Allow   bool   `json:"allow"`   // an allow rule; false for disallow
	Pattern string `json:"pattern"` // the path pattern as written, trimmed and without comment
	Line    int    `json:"line"`    // 1-based line number in the file
}

// String returns the rule as a robots.txt line.
func (r Rule) String() string {
	if r.Allow {
		return "allow: " + r.Pattern
	}
	return "disallow: " + r.Pattern
}
