package lint

import (
	"bytes"
	"encoding/json"
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
		if parse.IsKey(key, k) {
			return true
		}
	}
	return false
}

// A LineReport describes one line as Google's reporting library
// (RobotsParsingReporter, behind Search Console's robots.txt report) does:
// its number, its tag, and the metadata Google notes about it, as flags.
//
// A report holds one LineReport per line read, so it is kept to 8 bytes:
// the flags share one byte, and Line is an int32 (Google's reporter
// numbers lines with a C++ int too; lines past 2^31-1, in a file of 2 GiB
// or more read with no size limit, are numbered 2^31-1). Its JSON form
// spells each flag out: {"line":3,"tag":"allow","directive":true}.
type LineReport struct {
	Line  int32     // 1-based
	Tag   Tag       // what Google reads the key as
	Flags LineFlags // what else Google notes about the line
}

// LineFlags are what Google's reporting library notes about a line besides
// its tag (the metadata of its RobotsParsedLine), one bit each, in the
// order of Google's LineMetadata.
type LineFlags uint8

const (
	LineEmpty        LineFlags = 1 << iota // only white space
	LineHasComment                         // a '#' starts a comment somewhere on the line
	LineComment                            // only a comment (and white space)
	LineDirective                          // a key and a value were found
	LineTypo                               // the key is a misspelling Google accepts (useragent, disallaw, site-map, ...)
	LineTooLong                            // bytes past the 16,663rd were dropped
	LineMissingColon                       // key and value are separated by white space, not ':'

	allLineFlags = 1<<iota - 1
)

// lineFlagNames are the flags in the order of their JSON members, with
// their names.
var lineFlagNames = [...]struct {
	flag LineFlags
	name string
}{
	{LineTypo, "typo"},
	{LineEmpty, "empty"},
	{LineComment, "comment"},
	{LineHasComment, "has_comment"},
	{LineDirective, "directive"},
	{LineMissingColon, "missing_colon"},
	{LineTooLong, "too_long"},
}

// String returns the names of the flags set, as in JSON and in the order
// of the JSON members, joined by '|': "has_comment|directive"; bits that
// are no flag end it in hexadecimal. It returns "" when none is set.
func (f LineFlags) String() string {
	var b []byte
	for _, n := range lineFlagNames {
		if f&n.flag != 0 {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, n.name...)
		}
	}
	if rest := f &^ allLineFlags; rest != 0 {
		if len(b) > 0 {
			b = append(b, '|')
		}
		b = fmt.Appendf(b, "%#x", uint8(rest))
	}
	return string(b)
}

// MarshalJSON encodes r as an object with its line, its tag, and a true
// member for each flag set (the names String gives), in that order.
func (r LineReport) MarshalJSON() ([]byte, error) {
	if int(r.Tag) >= len(tagNames.names) {
		_, err := r.Tag.MarshalText()
		return nil, err
	}
	// Built on the stack (the longest form has 150 bytes), then copied
	// once: a report can have half a million lines.
	var buf [160]byte
	b := append(buf[:0], `{"line":`...)
	b = strconv.AppendInt(b, int64(r.Line), 10)
	b = append(b, `,"tag":"`...)
	b = append(b, tagNames.names[r.Tag]...)
	b = append(b, '"')
	for _, n := range lineFlagNames {
		if r.Flags&n.flag != 0 {
			b = append(b, `,"`...)
			b = append(b, n.name...)
			b = append(b, `":true`...)
		}
	}
	b = append(b, '}')
	return bytes.Clone(b), nil
}

// UnmarshalJSON decodes the form MarshalJSON gives. Flags that are absent
// or false are not set.
func (r *LineReport) UnmarshalJSON(data []byte) error {
	var v struct {
		Line         int32 `json:"line"`
		Tag          Tag   `json:"tag"`
		Typo         bool  `json:"typo"`
		Empty        bool  `json:"empty"`
		Comment      bool  `json:"comment"`
		HasComment   bool  `json:"has_comment"`
		Directive    bool  `json:"directive"`
		MissingColon bool  `json:"missing_colon"`
		TooLong      bool  `json:"too_long"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = LineReport{Line: v.Line, Tag: v.Tag}
	for i, set := range [...]bool{v.Typo, v.Empty, v.Comment, v.HasComment, v.Directive, v.MissingColon, v.TooLong} {
		if set {
			r.Flags |= lineFlagNames[i].flag
		}
	}
	return nil
}
