package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/seed50c7eacc/robotstxt"
)

// parseFlags parses args with fs, accepting flags before, between and after
// the positional arguments (so that "check FILE -agent BadBot URL" reads
// -agent as a flag, not as a URL); "--" ends the flags. It returns the
// positional arguments, or flag.ErrHelp, or the flag package's error.
// fs must print nothing itself: see newFlagSet.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !takesValue(fs, args, used-1) {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// takesValue reports whether args[i] is the value of the flag before it,
// as in "-agent --".
func takesValue(fs *flag.FlagSet, args []string, i int) bool {
	if i == 0 {
		return false
	}
	name := args[i-1]
	for len(name) > 0 && name[0] == '-' {
		name = name[1:]
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// newFlagSet returns a flag set that prints nothing: the command prints
// its errors once, and its help on standard output when asked for.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// maxSizeUsage is the help of every command's -max-size flag.
const maxSizeUsage = "read at most `N` bytes of FILE (Googlebot reads 500 KiB; negative: all of it, up to 1 GiB)"

// newReportFlags returns the flags of a command that reports on one
// robots.txt FILE (lint, audit): -json, described by jsonUsage, and
// -max-size.
func newReportFlags(name, jsonUsage string) (fs *flag.FlagSet, asJSON *bool, maxSize *int) {
	fs = newFlagSet(name)
	asJSON = fs.Bool("json", false, jsonUsage)
	maxSize = fs.Int("max-size", robotstxt.DefaultMaxSize, maxSizeUsage)
	return fs, asJSON, maxSize
}

// parseOrExplain parses args with fs. When it returns ok false, the caller
// returns status: 0 after the help asked for with -h, printed on stdout,
// or 2 after a usage error, printed with the usage on stderr.
func parseOrExplain(fs *flag.FlagSet, args []string, usage func(io.Writer), stdout, stderr io.Writer) (positional []string, status int, ok bool) {
	positional, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout)
		return nil, exitAllowed, false
	}
	if err != nil {
		errorf(stderr, "%v", err)
		usage(stderr)
		return nil, exitError, false
	}
	return positional, exitAllowed, true
}

// printUsage prints a command's usage to w: text, the flags of fs, and
// the other command to look at.
func printUsage(w io.Writer, fs *flag.FlagSet, other, text string) {
	io.WriteString(w, text)
	io.WriteString(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprintf(w, "\nSee also: robotstxt %s -h\n", other)
}

// usageError prints a usage problem and the usage, and returns status 2.
func usageError(stderr io.Writer, usage func(io.Writer), format string, args ...any) int {
	errorf(stderr, format, args...)
	usage(stderr)
	return exitError
}
