package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/seed50c7eacc/robotstxt/guard"
	"github.com/seed50c7eacc/robotstxt/internal/app/httpserve"
)

func guardUsage(w io.Writer) {
	fs, _ := newGuardFlags()
	printUsage(w, fs, "audit -h", `usage: robotstxt guard -robots FILE -upstream URL [-listen ADDR] [flags]

A reverse proxy that enforces robots.txt FILE in front of the site at URL,
whatever it is written in: a crawler that asks for what its own group of FILE
disallows is answered 403 with the rule; every other request, and every
browser's, goes to the upstream. /robots.txt is served from FILE, read again
when it changes, so crawlers read the rules the proxy enforces. Each refusal
is logged on standard error. It runs until interrupted (SIGINT or SIGTERM).
Exit status: 0 stopped, 2 usage error or a FILE or address that cannot be used.
`)
}

type guardFlags struct {
	robots, upstream, listen, impostors string
	status                              int
	verifyDNS                           bool
}

func newGuardFlags() (*flag.FlagSet, *guardFlags) {
	fs := newFlagSet("robotstxt guard")
	f := &guardFlags{}
	fs.StringVar(&f.robots, "robots", "", "the robots.txt `FILE` to enforce and serve")
	fs.StringVar(&f.upstream, "upstream", "", "the `URL` of the site to pass requests to")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "the `ADDR` to listen on")
	fs.IntVar(&f.status, "status", http.StatusForbidden, "the HTTP `STATUS` of a refusal")
	fs.BoolVar(&f.verifyDNS, "verify-dns", false, "verify the crawlers whose operators publish their domains (Googlebot, bingbot, Applebot, ...) by reverse DNS confirmed forward")
	fs.StringVar(&f.impostors, "impostors", "unnamed", "what a request that fails verification gets: `unnamed` (passes, as a browser's) or refuse")
	return fs, f
}

// guardCmd runs "robotstxt guard".
func guardCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, f := newGuardFlags()
	positional, status, ok := parseOrExplain(fs, args, guardUsage, stdout, stderr)
	if !ok {
		return status
	}
	if len(positional) > 0 {
		return usageError(stderr, guardUsage, "guard: unexpected argument %q", positional[0])
	}
	h, err := newGuardProxy(f, slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		return usageError(stderr, guardUsage, "guard: %v", err)
	}
	l, err := net.Listen("tcp", f.listen)
	if err != nil {
		errorf(stderr, "guard: %v", err)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stderr, "robotstxt guard: enforcing %s in front of %s on http://%s\n", f.robots, f.upstream, l.Addr())
	if err := httpserve.Until(ctx, l, h); err != nil {
		errorf(stderr, "guard: %v", err)
		return exitError
	}
	return exitAllowed
}

// newGuardProxy returns the proxy's handler: /robots.txt from the file,
// everything else through the guard to the upstream.
func newGuardProxy(f *guardFlags, logger *slog.Logger) (http.Handler, error) {
	if f.robots == "" || f.upstream == "" {
		return nil, errors.New("need -robots FILE and -upstream URL")
	}
	up, err := url.Parse(f.upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return nil, fmt.Errorf("-upstream %q is not an http or https URL", f.upstream)
	}
	src, err := guard.FileSource(f.robots, time.Second)
	if err != nil {
		return nil, err
	}
	g := guard.NewFunc(src)
	g.Status, g.Logger = f.status, logger
	switch f.impostors {
	case "unnamed":
		g.Impostors = guard.AsUnnamed
	case "refuse":
		g.Impostors = guard.Refuse
	default:
		return nil, fmt.Errorf("-impostors %q: want unnamed or refuse", f.impostors)
	}
	if f.verifyDNS {
		g.Verifier = &guard.ReverseDNS{}
	}
	guarded := g.Handler(httputil.NewSingleHostReverseProxy(up))
	// No ServeMux: it would clean and redirect the paths the upstream
	// is to read as they were sent.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write(src())
			return
		}
		guarded.ServeHTTP(w, r)
	}), nil
}
