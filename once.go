package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/engine"

// Allowed reports whether the crawler agent may fetch url by the rules of
// the robots.txt file data, as Parse(data).Allowed(agent, url) does, for a
// program that asks one question of a file: it reads the file once, the
// way Google's RobotsMatcher::OneAgentAllowedByRobots does, and keeps
// nothing. Most often it does not allocate, and it reads data only during
// the call.
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
