package lint

import (
	"fmt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
	"strconv"
)

// Google's per-line view of a robots.txt file, as its reporting library
// (reporting_robots) gives it; see Lint.

// A Tag is what Google's reporting library calls a line: the kind of its
// directive. The values are those of Google's RobotsParsedLine::RobotsTagName.
type Tag uint8

const (
	TagUnknown   Tag = iota // no directive, or a key Google does not know
	TagUserAgent            // user-agent, or a spelling Google accepts for it
	TagAllow                // allow
	TagDisallow             // disallow, or an accepted misspelling
	TagSitemap              // sitemap or site-map
	TagUnused               // a known key Google does not use: crawl-delay, host, noindex, ...
)

var tagNames = enumNames{kind: "tag", names: []string{"unknown", "user-agent", "allow", "disallow", "sitemap", "unused"}}

// String returns the tag's name: "unknown", "user-agent", "allow",
// "disallow", "sitemap" or "unused".
func (t Tag) String() string { return tagNames.name(uint8(t)) }

// MarshalText encodes t as its String form, for JSON.
func (t Tag) MarshalText() ([]byte, error) { return tagNames.marshal(uint8(t)) }

// UnmarshalText decodes the String form of a tag.
func (t *Tag) UnmarshalText(text []byte) error { return tagNames.unmarshal(text, (*uint8)(t)) }

// enumNames are the text forms of a small enumeration, as String,
// MarshalText and UnmarshalText give them.
type enumNames struct {
	kind  string // "tag", "severity"
	names []string
}

func (e enumNames) name(v uint8) string {
	if int(v) < len(e.names) {
		return e.names[v]
	}
	return e.kind + "(" + strconv.Itoa(int(v)) + ")"
}

func (e enumNames) marshal(v uint8) ([]byte, error) {
	if int(v) >= len(e.names) {
		return nil, fmt.Errorf("lint: invalid %s %d", e.kind, v)
	}
	return []byte(e.names[v]), nil
}

func (e enumNames) unmarshal(text []byte, v *uint8) error {
	for i, name := range e.names {
		if string(text) == name {
			*v = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("lint: unknown %s %q", e.kind, text)
}

// unusedKeys are the keys Google's reporting library tags as known but
// unused (its kUnsupportedTags). A key is compared with them in full after
// ASCII lower-casing, not by prefix.
var unusedKeys = [...]string{
	"clean-param", "content-signal", "content-usage", "crawl-delay",
	"domain", "host", "noarchive", "nofollow",
	"noindex", "request-rate", "revisit-after", "visit-time",
}

func isUnusedKey(key string) bool {
	for _, k := range unusedKeys {
		if len(key) == len(k) && parse.HasPrefixFold(key, k) {
			return true
		}
	}
	return false
}

// A LineReport describes one line as Google's reporting library
// (RobotsParsingReporter, behind Search Console's robots.txt report) does.
//
// A report holds one LineReport per line read, so it is kept to 12 bytes:
// Line is an int32 (Google's reporter numbers lines with a C++ int too;
// lines past 2^31-1, in a file of 2 GiB or more read with no size limit,
// are numbered 2^31-1).
type LineReport struct {
	Line         int32 `json:"line"`                    // 1-based
	Tag          Tag   `json:"tag"`                     // what Google reads the key as
	Typo         bool  `json:"typo,omitempty"`          // the key is a misspelling Google accepts (useragent, disallaw, site-map, ...)
	Empty        bool  `json:"empty,omitempty"`         // only white space
	Comment      bool  `json:"comment,omitempty"`       // only a comment (and white space)
	HasComment   bool  `json:"has_comment,omitempty"`   // a '#' starts a comment somewhere on the line
	Directive    bool  `json:"directive,omitempty"`     // a key and a value were found
	MissingColon bool  `json:"missing_colon,omitempty"` // key and value are separated by white space, not ':'
	TooLong      bool  `json:"too_long,omitempty"`      // bytes past the 16,663rd were dropped
}
