package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/parse"

// ValidAgent reports whether agent is a product token a crawler can obey
// rules under: non-empty and made only of ASCII letters, '-' and '_', like
// "Googlebot" or "Googlebot-Image". It is the check of Google's
// IsValidUserAgentToObey (google/robotstxt, robots.h).
//
// Allowed and Explain compare the agent they are given, whole and ignoring
// ASCII case, with the product token of each user-agent line, which is
// itself made only of those characters (RFC 9309, section 2.2.1, allows
// only letters, underscores and hyphens in a product token). So an agent
// that is not valid, such as
// "Googlebot/2.1" or a whole "Mozilla/5.0 (compatible; Googlebot/2.1; ...)"
// header, is named by no group and gets the rules of the "*" group.
func ValidAgent(agent string) bool {
	return agent != "" && parse.ProductToken(agent) == agent
}
