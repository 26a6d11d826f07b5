// Package robotstxt parses robots.txt files and answers whether a crawler
// may fetch a URL, exactly as Google's robots.txt parser and matcher
// (github.com/google/robotstxt) answer, quirks included.
//
// Parse a file once and ask as often as needed; a parsed *Robots is
// immutable and safe for concurrent use:
//
//	robots := robotstxt.Parse(body)
//	if robots.Allowed("Googlebot", "https://example.com/some/page?q=1") {
//		// fetch it
//	}
//
// A program that asks one question of a file and does not keep it calls
// [Allowed], which reads the file once, copies nothing and most often
// allocates nothing:
//
//	ok := robotstxt.Allowed(body, "Googlebot", "https://example.com/some/page")
//
// Parse accepts any bytes and never fails: lines it cannot read are
// ignored, as Google ignores them. It reads the first 512,000 bytes
// (500 KiB), as Googlebot does; [ParseWith] changes or lifts that limit.
//
// Parse itself only copies the file; [ParseString] keeps a string as it
// is, which cannot change, and so copies nothing (a crawler that keeps
// bodies as strings saves the copy), and [ParseOwned] keeps a slice its
// caller hands over (a body just read). The first question about an agent
// reads the copy once, line by line, the way Google's matcher reads a file,
// passing over the groups that do not apply to the agent, and compiles the
// rules of those that do (the groups naming it, else the "*" groups) into
// the form that answers every later question about it (Allowed, Explain,
// Agent, CrawlDelay, RequestRate, Usage) in tens of nanoseconds. A fifth
// agent, or Groups, Fields or Sitemaps, compiles the whole file and drops
// the copy; so do a file's 32nd and later questions, a part each, for a
// file of 64 KiB or more. A crawler pays for reading a file about once,
// however many questions it asks of it. A rule set of thousands of wildcard rules is
// indexed once its questions have paid for that, a bounded part per
// question, so that no question waits for the whole index; the questions
// asked meanwhile try the rules in turn. No call leaves a goroutine
// running: every part of the work is done by the questions themselves.
//
// The agent is a product token such as "Googlebot", compared with the
// leading letters, '-' and '_' of each user-agent line, ignoring case; it is
// not a full User-Agent header. The URL may be absolute or just a path; it
// is matched in wire form, with every byte >= 0x80 percent-encoded and the
// hex digits of existing escapes upper-cased, so raw UTF-8 in a URL means
// what a crawler would send.
//
// To ask many questions for one crawler, resolve its rules once with
// [Robots.Agent]. To see which line of the file decided, use
// [Robots.Explain].
//
// Beyond fetching, [Robots.Usage] and [Agent.Usage] say what the file lets
// a crawler do with the content of a URL it may fetch: the AI usage
// preferences of Content-Usage lines (IETF drafts
// draft-ietf-aipref-attach-05 and draft-ietf-aipref-vocab-08, work in
// progress) and Content-Signal lines (Cloudflare's Content Signals
// Policy), read per group.
//
// To get the files, package github.com/seed50c7eacc/robotstxt/fetch
// fetches and caches them as Google's crawler does (redirects, status
// codes, 24-hour lifetime, the last copy kept through failures) behind one
// call, client.Allowed(ctx, agent, url); its Transport, an
// http.RoundTripper, refuses every request the site's robots.txt
// disallows and paces each site by its Crawl-delay; and the nested module
// github.com/seed50c7eacc/robotstxt/fetch/redisstore shares the copies
// across a crawl fleet through Redis.
//
// Package github.com/seed50c7eacc/robotstxt/lint tells site owners what
// Google will actually do with their file: diagnostics for the traps that
// make a file mean something other than it seems to, and the per-line view
// of Google's reporting library. It reads a file exactly as Parse does,
// with the same tokenizer, grouper and engine.
//
// The behaviour follows RFC 9309 (Robots Exclusion Protocol) and Google's
// documentation of how it reads robots.txt files,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
// and, where those leave room, Google's open-source library.
package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/engine"

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use by multiple goroutines. The zero value is an empty file,
// which allows everything.
type Robots struct {
	file      engine.File // the matcher's engine: compiles the asked agents' rules, then the file; knows the bytes read
	truncated bool        // bytes past the size limit were ignored
	// outcome is Rules, or a blanket answer from an HTTP result: a byte,
	// so that a Robots takes 48 bytes, not 56 (a size class of 64), beside
	// its copy.
	outcome uint8
}

// Size returns how many bytes of the file were parsed.
func (r *Robots) Size() int {
	if r == nil {
		return 0
	}
	return r.file.Size()
}

// Truncated reports whether the file was longer than the size limit, so
// that its end was ignored.
func (r *Robots) Truncated() bool { return r != nil && r.truncated }
