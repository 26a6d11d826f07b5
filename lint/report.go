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

var tagNames = [...]string{"unknown", "user-agent", "allow", "disallow", "sitemap", "unused"}

// String returns the tag's name: "unknown", "user-agent", "allow",
// "disallow", "sitemap" or "unused".
func (t Tag) String() string {
	if int(t) < len(tagNames) {
		return tagNames[t]
	}
	return "tag(" + strconv.Itoa(int(t)) + ")"
}

// MarshalText encodes t as its String form, for JSON.
func (t Tag) MarshalText() ([]byte, error) {
	if int(t) >= len(tagNames) {
		return nil, fmt.Errorf("lint: invalid tag %d", t)
	}
	return []byte(t.String()), nil
}

// UnmarshalText decodes the String form of a tag.
func (t *Tag) UnmarshalText(text []byte) error {
	for i, name := range tagNames {
		if string(text) == name {
			*t = Tag(i)
			return nil
		}
	}
	return fmt.Errorf("lint: unknown tag %q", text)
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
type LineReport struct {
	Line         int  `json:"line"`
	Tag          Tag  `json:"tag"`
	Typo         bool `json:"typo,omitempty"`          // the key is a misspelling Google accepts (useragent, disallaw, site-map, ...)
	Empty        bool `json:"empty,omitempty"`         // only white space
	Comment      bool `json:"comment,omitempty"`       // only a comment (and white space)
	HasComment   bool `json:"has_comment,omitempty"`   // a '#' starts a comment somewhere on the line
	Directive    bool `json:"directive,omitempty"`     // a key and a value were found
	MissingColon bool `json:"missing_colon,omitempty"` // key and value are separated by white space, not ':'
	TooLong      bool `json:"too_long,omitempty"`      // bytes past the 16,663rd were dropped
}
