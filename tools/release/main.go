// Command release writes modules of this repository into a directory laid
// out as a module proxy (GOPROXY=file://DIR), as the proxy would serve
// them once their tags are pushed: each module's zip made from a
// revision's files by golang.org/x/mod/zip (nested modules left out of
// the modules around them, as a tag's zip leaves them out), its go.mod,
// its .info and the version list. .ci/run's release rehearsal then builds
// a user's module against it, so that what a tag would publish is built
// as a user builds it, outside the repository's workspace.
//
//	go run . -repo ../.. -rev HEAD -version v0.1.0 -out DIR \
//		github.com/seed50c7eacc/robotstxt=. \
//		github.com/seed50c7eacc/robotstxt/fetch/redisstore=fetch/redisstore
//
// A go.mod with a replace directive is refused: Go ignores the replaces of
// a module that is not the main module, so a published module that needs
// one cannot be built by its users.
//
// It is a module of its own, so that golang.org/x/mod is never a
// dependency of the library.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	repo := flag.String("repo", ".", "the repository's root `DIR`")
	rev := flag.String("rev", "HEAD", "the `REVISION` a tag would name")
	version := flag.String("version", "", "the `VERSION` each module is published at (v0.1.0)")
	out := flag.String("out", "", "the proxy `DIR` to write into")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: release -version V -out DIR [-repo DIR] [-rev REV] MODULE=SUBDIR...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *version == "" || *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, arg := range flag.Args() {
		path, subdir, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "release: %q is not MODULE=SUBDIR\n", arg)
			os.Exit(2)
		}
		m := module{Path: path, Version: *version, Subdir: subdir}
		if err := publish(*out, *repo, *rev, m); err != nil {
			fmt.Fprintf(os.Stderr, "release: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("published %s@%s from %s:%s\n", path, *version, *rev, subdir)
	}
}
