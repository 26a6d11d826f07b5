// Package diff tells what changes when a new version of a robots.txt file
// replaces the old one: for each crawler, every class of URL paths whose
// verdict changes, each with a witness path that the two files answer
// differently, and the rest of the file (sitemaps, crawl-delay and
// request-rate, AI usage preferences, License lines, the agents named,
// lines that became ignored).
//
//	report := diff.Compare(oldBody, newBody)
//	for _, c := range report.Crawlers {
//		for _, ch := range c.Changes {
//			fmt.Println(c.Agent, ch.Path, ch.Becomes())
//		}
//	}
//
// The comparison is exact, not sampled. A crawler class is a product token
// either file names (RFC 9309 section 2.2.1: a crawler obeys the groups
// naming it, else the "*" groups), plus [Others], every crawler neither
// file names. For each class the verdict of a path depends only on which
// of the patterns that apply match it, and their lengths (RFC 9309
// section 2.2.2; Google's matcher, as package robotstxt implements it:
// the longest pattern in wire form decides, allow wins a tie, an empty
// disallow allows, "allow: /dir/index.html" also allows "/dir/"). Each
// pattern with '*' and a final '$' is a regular language, so the diff runs
// one automaton over all patterns of both versions (a subset construction
// over the patterns' positions, reading only paths in wire form: no byte
// >= 0x80, no NUL or '#', escapes with upper-case hex) and visits every
// state it can reach, breadth first. A state where the versions disagree
// is a class of changed paths; the path that first reached it is its
// shortest witness, spelled with the patterns' own bytes. (The automaton
// is in internal/pathdiff, which package lint shares; only the rules that
// can meet a path matching a pattern the versions hold differently are
// run.)
//
// When a class has no changes and Decided is true, no path changes verdict
// for it under this module's matcher. The exploration of each class is
// bounded by Options.MaxWork; a class that exhausts it (thousands of
// wildcard rules) is reported with Decided false, and never as unchanged.
// Every witness is checked with robotstxt.Parse on both versions before it
// is reported.
//
// AI usage preferences (Robots.Usage: Content-Usage and Content-Signal
// lines) are compared as exactly, per crawler class: of the Content-Usage
// lines whose path pattern matches a path, those with the longest pattern
// decide, combined most restrictive first (draft-ietf-aipref-attach-05
// section 3.1, draft-ietf-aipref-vocab-08 section 5.1), so the same
// automaton, running the allow and disallow rules too, finds every class of
// paths that both versions let the crawler fetch and whose preferences
// differ (Crawler.Usage), each with a witness checked with Usage on both
// versions; Crawler.UsageDecided is false where its budget ran out.
//
// The package is named for what it computes, as package net/http/httputil
// or go/ast are: diff.Compare(old, new) reads as a sentence, and its
// Report is a value a monitor can store, print (the robotstxt command's
// "diff" subcommand) or encode as JSON.
package diff
