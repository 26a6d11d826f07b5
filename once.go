package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/engine"

// Allowed reports whether the crawler agent may fetch url by the rules of
// the robots.txt file data, as Parse(data).Allowed(agent, url) does, for a
// program that asks one question of a file: it reads the file once, the
// way Google's RobotsMatcher::OneAgentAllowedByRobots does, and keeps
// nothing: it reads data only during the call. It does not allocate
// unless the URL needs escaping and its path is longer than 2 KiB once
// escaped, or the question would cost a stream too much (thousands of
// wildcard rules against a long path), which it answers by compiling a
// copy of the file.
//
// A file asked more than once is parsed once with [Parse], whose later
// questions cost a small fraction of this one; from the second question
// on, that is the faster way.
func Allowed(data []byte, agent, url string) bool {
	if len(data) > DefaultMaxSize {
		data = data[:DefaultMaxSize]
	}
	return engine.AllowedOnce(data, agent, url)
}
