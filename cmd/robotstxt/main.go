// Command robotstxt answers whether a crawler may fetch URLs under a
// robots.txt file, as Google's parser would, and says which line decided;
// it also lints a robots.txt file and audits what it says to AI crawlers.
//
//	go install github.com/seed50c7eacc/robotstxt/cmd/robotstxt@latest
//
// Usage:
//
//	robotstxt [check] [flags] FILE [URL...]
//	robotstxt [check] -fetch [flags] [URL...]
//	robotstxt lint [-json] [-max-size N] FILE
//	robotstxt audit [-json] [-max-size N] [-crawler TEXT] [-purpose LIST] [-blocked] FILE [URL...]
//	robotstxt guard -robots FILE -upstream URL [-listen ADDR]
//	robotstxt diff [flags] OLD NEW
//	robotstxt diff -fetch URL [flags] NEW
//	robotstxt help [COMMAND]
//
// check is the default command. FILE is a robots.txt file, or - for
// standard input. For each URL it prints one line: ALLOWED or DISALLOWED,
// the URL, and the deciding line of the file with its rule (the kind, and
// the pattern as written), or that no rule applied. A URL is an absolute http or https URL or a path
// starting with "/"; anything else ("example.com/x", "", a URL that does
// not parse) is an error, reported on standard error with the URL as
// typed. URLs may hold raw UTF-8; they are matched as a crawler would send
// them, percent-encoded. Flags may come before or after FILE and the URLs;
// "--" ends the flags.
//
// -urls LIST reads more URLs, one per line, from the file LIST, or from
// standard input when LIST is - (FILE cannot then be - too). -json prints
// one JSON object per URL instead of a line: the URL, the verdict and the
// deciding rule, {"line", "kind", "pattern"}, or null when no rule applied
// (audit -json writes rules the same way; every key is snake_case).
//
// With -fetch there is no FILE (a FILE given is refused, not read as a
// URL), and each URL must be absolute: the robots.txt file of its site is
// fetched over HTTP and cached as Google's crawler does (package fetch). A
// site whose file is missing is allowed, and one whose file could not be
// fetched (a 5xx or 429 status, a network error) is disallowed, as Google
// does; the line says why.
//
// The agent (-agent, default Googlebot) should be a product token such as
// Googlebot: a string such as Googlebot/2.1 or a whole User-Agent header
// is named by no group, so the * group answers; the command warns.
//
// Exit status of check:
//
//	0  every URL is allowed
//	1  some URL is disallowed by a rule
//	2  a usage error, or a file, URL or URL list that could not be read
//	3  with -fetch, some site's robots.txt could not be fetched (its URLs
//	   are disallowed), and no status 2 error
//
// lint reports what Google will do with FILE, like a compiler: one
// FILE:LINE: severity: message [code] line per finding (the documentation
// of package github.com/seed50c7eacc/robotstxt/lint lists the codes). -json prints the whole report, with Google's per-line
// view, as JSON. The exit status is 1 when any finding is an error, 0
// otherwise, and 2 for a usage or read error.
//
// audit reports what FILE says to the well-known AI and search crawlers
// (a list kept in the repository, from the ai.robots.txt project): for
// each crawler and each URL (default: the site root /), whether it may
// fetch it and the deciding rule with its line, as the file writes it
// ("line 2: Disallow: /private/"), and its AI usage preferences there
// (the Content-Usage categories of draft-ietf-aipref-vocab-08, train-ai,
// ai-use and search; the Content-Signal ones, ai-train, ai-input and
// search). The crawlers named by a group of their own come first, then
// the others by purpose (AI training, AI input, AI search, other AI,
// search) and by name; -json keeps the crawler list's order. Then come
// the crawler names that Google's
// product-token rule reads differently from how they are written
// ("AI2Bot" as "AI"). It asks with the token Google reads. It lists the
// file's License lines (RSL 1.0), which it neither fetches nor evaluates,
// and warns, as check does, when the file was cut at the size limit.
// -json prints the report as JSON. The exit status is 0, or 2 for a usage
// or read error (a URL that is not one included).
//
// guard is a reverse proxy that enforces robots.txt FILE in front of the
// site at URL (package guard): a crawler that asks for what its own group
// disallows is answered 403 with the rule, every other request goes to
// the site, and /robots.txt is served from FILE, read again when it
// changes. It runs until interrupted.
//
// diff reports exactly what changes when robots.txt NEW replaces OLD
// (package github.com/seed50c7eacc/robotstxt/diff): for each crawler, one
// line per class of paths whose verdict changes, with a witness path both
// versions answer differently, the deciding rules before and after, and
// the class described by patterns; search crawlers first, then AI
// crawlers by purpose, then other named agents, then every crawler
// neither version names. Then sitemaps, License lines, crawl-delay,
// request-rate and AI usage changes, agents newly named or no longer
// named, and lines newly ignored. -fetch URL compares NEW with the live
// file of URL's site; -agents restricts the crawlers; -urls LIST answers
// a list of URLs on both versions and lists the flips; -json prints the
// report as JSON. Its exit status is 0 when no verdict changes, 1 when
// one does (with -fail-on-block, only when some path becomes disallowed
// for a compared crawler), 2 for a usage, read or fetch error, and 3 when
// no change was found but some crawler was not decided within the
// budget (-max-work).
//
// Every command reads at most -max-size bytes of FILE (plus one, to know
// that the file goes on), as Googlebot reads only the first 500 KiB.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit statuses.
const (
	exitAllowed     = 0
	exitDisallowed  = 1
	exitError       = 2
	exitUnreachable = 3
)

// A command is a subcommand of robotstxt.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands, for dispatch and for the usage message.
var commands = []command{
	{"check", "say whether an agent may fetch URLs, and which line decided (the default)", check},
	{"lint", "report what Google will do with a robots.txt file, like a compiler", lint},
	{"audit", "show what a robots.txt file says to the well-known AI and search crawlers", auditCmd},
	{"guard", "enforce a robots.txt in front of a site: refuse what a crawler's own group disallows", guardCmd},
	{"diff", "show exactly what changes, per crawler, when a new robots.txt replaces the old one", diffCmd},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, with its environment passed in for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitError
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if args[1] == "help" {
				usage(stdout)
				return exitAllowed
			}
			if c, ok := lookup(args[1]); ok {
				return c.run([]string{"-h"}, stdin, stdout, stderr)
			}
			fmt.Fprintf(stderr, "robotstxt: unknown command %q\n", args[1])
			usage(stderr)
			return exitError
		}
		usage(stdout)
		return exitAllowed
	}
	if c, ok := lookup(args[0]); ok {
		return c.run(args[1:], stdin, stdout, stderr)
	}
	return check(args, stdin, stdout, stderr)
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usage prints the top-level usage: the commands and where to learn more.
func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: robotstxt [check] [flags] FILE [URL...]\n")
	fmt.Fprintf(w, "       robotstxt [check] -fetch [flags] [URL...]\n")
	fmt.Fprintf(w, "       robotstxt lint [-json] [-max-size N] FILE\n")
	fmt.Fprintf(w, "       robotstxt audit [-json] [-max-size N] [-crawler TEXT] [-purpose LIST] [-blocked] FILE [URL...]\n")
	fmt.Fprintf(w, "       robotstxt guard -robots FILE -upstream URL [-listen ADDR]\n")
	fmt.Fprintf(w, "       robotstxt diff [flags] OLD NEW\n")
	fmt.Fprintf(w, "       robotstxt help [COMMAND]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"robotstxt help COMMAND\" (or \"robotstxt COMMAND -h\") for its flags and exit statuses.\n")
}

// errorf prints a message on standard error after the command's name,
// once: errors of the library that already start with "robotstxt: " lose
// that prefix.
func errorf(stderr io.Writer, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for strings.HasPrefix(msg, "robotstxt: ") {
		msg = msg[len("robotstxt: "):]
	}
	msg = strings.ReplaceAll(msg, ": robotstxt: ", ": ")
	fmt.Fprintf(stderr, "robotstxt: %s\n", msg)
}
