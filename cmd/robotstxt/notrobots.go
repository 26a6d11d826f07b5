package main

import (
	robotslint "github.com/seed50c7eacc/robotstxt/lint"
)

// notRobotsWarning returns lint's message when data, read up to limit
// bytes, is not a robots.txt at all (an HTML page, binary data, UTF-16,
// gzip: the codes lint reports alone), and "" otherwise. Google finds no
// rules in such a body, so check would answer ALLOWED with no hint.
func notRobotsWarning(data []byte, limit int) string {
	for _, d := range robotslint.LintWith(data, robotslint.Options{MaxSize: limit}).Diagnostics {
		if aloneCodes[d.Code] {
			return d.Message + " [" + string(d.Code) + "]"
		}
	}
	return ""
}
