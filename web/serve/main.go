// Command serve builds the browser tester and serves it on localhost, or
// writes it to a directory for hosting anywhere:
//
//	go run ./web/serve                      # http://localhost:8080/
//	go run ./web/serve -addr 127.0.0.1:0    # any free port; the URL is printed
//	go run ./web/serve -out site/           # write the static site and exit
//
// It needs the go command, to compile the library to WebAssembly, and runs
// from within this module. Served, the site lives in a temporary directory
// that is removed when the command stops (on SIGINT or SIGTERM too).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/seed50c7eacc/robotstxt/internal/app/httpserve"
	"github.com/seed50c7eacc/robotstxt/web/internal/build"
	"github.com/seed50c7eacc/robotstxt/web/internal/site"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	out := flag.String("out", "", "write the static site to this directory and exit")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *out, os.Stdout, build.Site); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		stop()
		os.Exit(1) // after run's deferred clean-up
	}
}

// run builds the site with buildSite into out, or into a temporary
// directory that it serves on addr until ctx is done, and then removes.
func run(ctx context.Context, addr, out string, stdout io.Writer, buildSite func(dir string) error) error {
	if out != "" {
		if err := buildSite(out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", out)
		return nil
	}
	dir, err := os.MkdirTemp("", "robotstxt-web-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := buildSite(dir); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// Tests read this line to learn the port and the directory.
	fmt.Fprintf(stdout, "serving http://%s/ from %s\n", ln.Addr(), dir)
	err = httpserve.Until(ctx, ln, site.Handler(dir))
	slog.Info("serve: stopped; removing the site", "dir", dir)
	return err
}
