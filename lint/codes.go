package lint

// A Code identifies the kind of a [Diagnostic]. Codes are stable
// kebab-case strings: tools may filter on them.
type Code string

// Diagnostic codes. See [Codes] for their severities and meanings.
const (
	CodeLooksLikeHTML       Code = "looks-like-html"
	CodeBinary              Code = "binary-content"
	CodeGzip                Code = "gzip-content"
	CodeUTF16               Code = "utf16-encoding"
	CodeContentPastLimit    Code = "content-past-limit"
	CodeLineTooLong         Code = "line-too-long"
	CodeBOMMidFile          Code = "bom-mid-file"
	CodeInvalidUTF8         Code = "invalid-utf8"
	CodeNotADirective       Code = "not-a-directive"
	CodeMissingColon        Code = "missing-colon"
	CodeKeyTypo             Code = "key-typo"
	CodeKeyPrefix           Code = "key-prefix"
	CodeUnknownKey          Code = "unknown-key"
	CodeUnusedKey           Code = "unused-key"
	CodeRuleOutsideGroup    Code = "rule-outside-group"
	CodePathNotAbsolute     Code = "path-not-absolute"
	CodeDollarInMiddle      Code = "dollar-in-middle"
	CodeLowercaseEscape     Code = "lowercase-escape"
	CodeNonASCIIPath        Code = "non-ascii-path"
	CodeAgentNotGlobal      Code = "agent-not-global"
	CodeAgentTokenDiffers   Code = "agent-token-differs"
	CodeEmptyGroupOverrides Code = "empty-group-overrides-global"
	CodeGroupsJoined        Code = "groups-joined"
	CodeGroupsMerged        Code = "groups-merged"
	CodeSamePattern         Code = "same-pattern-allow-disallow"
	CodeRuleShadowed        Code = "rule-shadowed"
	CodeRuleDuplicate       Code = "rule-duplicate"
	CodeRuleRedundant       Code = "rule-redundant"
	CodeSitemapNotAbsolute  Code = "sitemap-not-absolute"
	CodeCrawlDelayInvalid   Code = "crawl-delay-invalid"

	// RSL 1.0 License lines.
	CodeLicenseNotAbsolute Code = "license-not-absolute"
	CodeLicenseInGroup     Code = "license-in-group"

	// AI usage preferences (Content-Usage, Content-Signal).
	CodeUsageMalformed        Code = "usage-malformed"
	CodeUsageEmpty            Code = "usage-empty"
	CodeUsageUnknownLabel     Code = "usage-unknown-label"
	CodeUsageBadValue         Code = "usage-bad-value"
	CodeUsageRepeatedKey      Code = "usage-repeated-key"
	CodeUsagePathNoSlash      Code = "usage-path-no-slash"
	CodeSignalPath            Code = "signal-path"
	CodeUsageOutsideGroup     Code = "usage-outside-group"
	CodeUsageGroupingConflict Code = "usage-grouping-conflict"
	CodeUsageDisallowedPath   Code = "usage-disallowed-path"
	CodeUsageContradiction    Code = "usage-contradiction"
)

// A CodeInfo describes a diagnostic code.
type CodeInfo struct {
	Code     Code     // the name diagnostics carry, such as "rule-shadowed"
	Severity Severity // the usual severity; Doc says when it differs
	Doc      string   // one line
}

// codes is the registry of diagnostic codes, in the order the docs list
// them. The package documentation and docs/lint.md are checked against it.
var codes = [...]CodeInfo{
	{CodeLooksLikeHTML, SeverityError, "the body is an HTML page, not robots.txt; reported alone"},
	{CodeBinary, SeverityError, "the body is binary data (NUL or control bytes), not text; reported alone"},
	{CodeGzip, SeverityError, "the body is gzip-compressed; Google reads no rules in it; reported alone"},
	{CodeUTF16, SeverityError, "the body is UTF-16; Google reads bytes and finds no rules; reported alone"},
	{CodeContentPastLimit, SeverityError, "directives past the size limit are ignored (info if only blank or comment lines are)"},
	{CodeLineTooLong, SeverityError, "a directive line is cut at 16,663 bytes, changing its value (info for a comment)"},
	{CodeBOMMidFile, SeverityError, "a byte order mark inside the file spoils a key or a value"},
	{CodeInvalidUTF8, SeverityWarning, "a key or value is not UTF-8; its bytes are matched percent-encoded"},
	{CodeNotADirective, SeverityWarning, "a line that is neither blank, a comment, \"key: value\" nor \"key value\""},
	{CodeMissingColon, SeverityWarning, "\"key value\" without a colon: Google accepts it, others may not"},
	{CodeKeyTypo, SeverityWarning, "a misspelt key Google accepts (useragent, disalow, site-map, ...)"},
	{CodeKeyPrefix, SeverityWarning, "a key read only because it begins with a known one (Disallowed:, User-agents:)"},
	{CodeUnknownKey, SeverityWarning, "a key Google does not know; the line is ignored (info for RSL's License)"},
	{CodeUnusedKey, SeverityInfo, "a known key Google ignores (crawl-delay, host, noindex, ...)"},
	{CodeRuleOutsideGroup, SeverityError, "an allow or disallow before any user-agent line; ignored"},
	{CodePathNotAbsolute, SeverityError, "a pattern starting with neither '/' nor '*'; it never matches"},
	{CodeDollarInMiddle, SeverityWarning, "'$' before the end of a pattern is a literal '$'"},
	{CodeLowercaseEscape, SeverityInfo, "a %xx escape with lower-case hex; Google upper-cases it"},
	{CodeNonASCIIPath, SeverityInfo, "raw non-ASCII in a pattern, matched as its UTF-8 percent-encoding"},
	{CodeAgentNotGlobal, SeverityError, "a user-agent starting with '*' that is not \"*\"; it names no crawler"},
	{CodeAgentTokenDiffers, SeverityWarning, "Google reads only the leading letters, '-' and '_' of a user-agent (info for a /version)"},
	{CodeEmptyGroupOverrides, SeverityWarning, "an agent whose only group has no rules escapes the '*' rules"},
	{CodeGroupsJoined, SeverityWarning, "a blank or non-group line between user-agent lines does not end a group"},
	{CodeGroupsMerged, SeverityInfo, "several groups name one agent; Google merges their rules"},
	{CodeSamePattern, SeverityWarning, "an allow and a disallow with one pattern: the disallow never applies"},
	{CodeRuleShadowed, SeverityWarning, "a rule that can never decide: a rule that takes precedence covers it"},
	{CodeRuleDuplicate, SeverityWarning, "a rule that repeats another of the same agent's rules: dropping it changes no verdict"},
	{CodeRuleRedundant, SeverityInfo, "a rule without which every path keeps its verdict (another rule decides its paths alike)"},
	{CodeSitemapNotAbsolute, SeverityError, "a sitemap that is not an absolute http(s) URL (warning when empty)"},
	{CodeCrawlDelayInvalid, SeverityWarning, "a crawl-delay that is not a non-negative number of seconds"},
	{CodeLicenseNotAbsolute, SeverityError, "an RSL License that is not an absolute http(s) URL (warning when empty)"},
	{CodeLicenseInGroup, SeverityWarning, "an RSL License line among a group's lines: it is global, for every crawler"},
	{CodeUsageMalformed, SeverityError, "a Content-Usage or Content-Signal value that is not an RFC 9651 dictionary: all unknown"},
	{CodeUsageEmpty, SeverityWarning, "a Content-Usage or Content-Signal line without a preference"},
	{CodeUsageUnknownLabel, SeverityInfo, "a preference label the vocabulary does not define; ignored"},
	{CodeUsageBadValue, SeverityWarning, "a known label whose value is not y/n (yes/no for Content-Signal): unknown"},
	{CodeUsageRepeatedKey, SeverityWarning, "a label repeated in one value; only its last value counts"},
	{CodeUsagePathNoSlash, SeverityError, "a Content-Usage path not starting with '/': the value does not parse"},
	{CodeSignalPath, SeverityError, "a Content-Signal value with a path, which it cannot have"},
	{CodeUsageOutsideGroup, SeverityError, "a preference before any user-agent line; it applies to no crawler"},
	{CodeUsageGroupingConflict, SeverityWarning, "a preference between user-agent lines: Google joins the groups, the draft splits them"},
	{CodeUsageDisallowedPath, SeverityWarning, "a Content-Usage path its group disallows; it never applies"},
	{CodeUsageContradiction, SeverityWarning, "Content-Usage and Content-Signal of one group say opposite things"},
}

// Codes returns every diagnostic code with its usual severity and a
// one-line description.
func Codes() []CodeInfo { return append([]CodeInfo(nil), codes[:]...) }

// severityOf returns the usual severity of code.
func severityOf(code Code) Severity {
	for _, c := range codes {
		if c.Code == code {
			return c.Severity
		}
	}
	return SeverityError
}
