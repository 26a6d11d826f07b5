package engine

import "github.com/seed50c7eacc/robotstxt/internal/swar"

// AllowedOnce reports whether agent may fetch url by the rules of data,
// for a file asked one question: it reads data once, as a stream, and
// keeps nothing, so that it needs neither the copy File.Load makes nor a
// compiled form. It answers as a File of data does. data is read during
// the call only, and need not be padded: the stream reads no byte past
// its end. A question that would cost the stream more than its budget (a
// file of many wildcard rules, a long path) is answered by the file
// compiled, from a copy, as File answers it.
func AllowedOnce(data []byte, agent, url string) bool {
	// A view, not a copy: the verdict's pattern is a part of it, but only
	// its answer leaves this function.
	if v, ok := streamVerdict(swar.String(data), agent, url); ok {
		return v.Allowed
	}
	var f File
	f.Load(data)
	f.Compile()
	return f.Allowed(agent, url)
}
