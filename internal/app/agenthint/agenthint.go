// Package agenthint explains, for the command and the browser tester, why
// an agent typed by a user is not a product token and which token was
// probably meant.
package agenthint

import (
	"fmt"
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// Warning returns "" when agent is a product token (robotstxt.ValidAgent),
// and otherwise one sentence saying that no group can name it, so that the
// "*" group answers, and which token a crawler sending it would obey.
func Warning(agent string) string {
	if robotstxt.ValidAgent(agent) {
		return ""
	}
	if strings.TrimSpace(agent) == "" {
		return "no crawler named: only the * group applies; give a product token such as Googlebot"
	}
	msg := fmt.Sprintf("%q is not a product token (only letters, '-' and '_'): Google compares it whole with each group's token, so no group can name it and the * group answers", agent)
	if token := Token(agent); token != "" {
		msg += fmt.Sprintf("; the token a crawler sending it obeys is %q", token)
	}
	return msg
}

// Token returns the product token agent most likely stands for: the one
// after "compatible;" in a browser-style header such as
// "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
// or otherwise the leading run of letters, '-' and '_' (the part a
// user-agent line of a robots.txt file would be read as), such as
// "Googlebot" for "Googlebot/2.1". It returns "" when there is none.
func Token(agent string) string {
	agent = strings.TrimSpace(agent)
	if i := strings.Index(strings.ToLower(agent), "compatible;"); i >= 0 {
		if t := parse.ProductToken(strings.TrimSpace(agent[i+len("compatible;"):])); t != "" {
			return t
		}
	}
	return parse.ProductToken(agent)
}
