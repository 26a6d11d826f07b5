package tester

import (
	"strings"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/app/audit"
)

// Audit is the page's AI crawler view of a robots.txt file: what it says
// to each well-known AI and search crawler for each line of urls (blank
// lines skipped; the site root "/" when there are none), as the robotstxt
// audit command reports it. It fails only if the embedded crawler list
// cannot be read.
func Audit(robots, urls string) (*audit.Report, error) {
	var list []string
	for _, u := range strings.Split(urls, "\n") {
		if u = strings.TrimSpace(u); u != "" {
			list = append(list, u)
		}
	}
	return audit.Run([]byte(robots), robotstxt.Options{}, list)
}
