package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/servers"
)

// The generated spellings against real file servers: each server serves
// a directory whose every file's body names the resource it is, so what a
// request was served is read from the body, whatever path the server
// resolved. Thousands of spellings of each resource (dot segments, runs
// of slashes, %xx of any byte in either case, %2F, trailing "/.", "/" and
// %2F, queries) go through a Transport; the promise checked: no
// disallowed resource is ever served through it. Each spelling is also
// sent straight to the server, so that a refusal of a request the server
// would have answered with an allowed resource is counted as
// over-blocking, by the rule and reading that refused it.

// fileReserved are the reserved characters of RFC 3986 section 2.2 that
// a file name may hold; each names a file /r/a<c>b, disallowed by a rule
// that writes the character percent-encoded.
const fileReserved = ":@!$&'()*+,;=[]?#"

// fileRobots is the site's robots.txt: rules ending in '$', a wildcard
// rule, a query rule, %-escapes of an unreserved, a non-ASCII and each
// reserved byte, and an allow inside a disallowed directory.
func fileRobots() string {
	var b strings.Builder
	b.WriteString("User-agent: *\n" +
		"Disallow: /private/\n" +
		"Allow: /private/open.html\n" +
		"Disallow: /*.pdf$\n" +
		"Disallow: /secret.html$\n" +
		"Disallow: /%7Ejoe/\n" +
		"Disallow: /caf%C3%A9/\n" +
		"Disallow: /*?session=\n" +
		"Disallow: /*/hidden/\n")
	for i := 0; i < len(fileReserved); i++ {
		hex := fmt.Sprintf("%02X", fileReserved[i])
		if i%2 == 1 {
			hex = strings.ToLower(hex)
		}
		fmt.Fprintf(&b, "Disallow: /r/a%%%sb\n", hex)
	}
	return b.String()
}

// fileIntent is what the site owner means by fileRobots where RFC 9309
// and Google's matcher part: RFC 9309 section 2.2.2 decodes the
// unreserved %7E, so /%7Ejoe/ is /~joe/.
const fileIntent = "Disallow: /~joe/\n"

// siteFiles are the files of the site, by decoded path; a directory's
// index.html is the directory's resource.
func siteFiles() []string {
	files := []string{
		"/index.html",
		"/public/index.html", "/public/x.html", "/public/y.pdf", "/public/dir/index.html",
		"/private/index.html", "/private/x.html", "/private/open.html",
		"/docs/index.html", "/docs/file.pdf", "/docs/file.pdf.html",
		"/secret.html", "/secret.html.bak",
		"/~joe/index.html", "/~joe/x.html", "/~ann/index.html", "/~ann/x.html",
		"/café/index.html", "/café/x.html", "/cafe/index.html", "/cafe/x.html",
		"/search.html",
		"/p/index.html", "/p/hidden/index.html", "/p/hidden/q.html",
		"/r/index.html", "/r/ab",
	}
	for i := 0; i < len(fileReserved); i++ {
		files = append(files, "/r/a"+string(fileReserved[i])+"b")
	}
	return files
}

// resourceOf names the resource a file is: a directory's index.html is
// the directory.
func resourceOf(file string) string {
	if strings.HasSuffix(file, "/index.html") {
		return strings.TrimSuffix(file, "index.html")
	}
	return file
}

// writeSite writes the site's files and robots.txt under a new directory
// that every user may read.
func writeSite(t *testing.T) string {
	t.Helper()
	root := filepath.Join(servers.Dir(t), "www")
	for _, f := range siteFiles() {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("resource "+resourceOf(f)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "robots.txt"), []byte(fileRobots()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// escapeExcept writes a decoded path with every byte percent-encoded (in
// upper-case hex) but those keep accepts.
func escapeExcept(p string, keep func(c byte) bool) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if c := p[i]; keep(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func isUnreservedByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0
}

// resourceTruth says whether robots.txt disallows a resource (a decoded
// path) asked for with query (as sent, "" or starting with '?'): it does
// when Google's matcher disallows its plainest spelling (only the bytes
// that may not stand for themselves in a path encoded, RFC 3986 section
// 3.3) or its most encoded one (every byte but the unreserved and '/'
// encoded), with the query as sent or with its unreserved %xx decoded
// (RFC 3986 section 6.2.2.2), or without it when it is empty (every
// server reads /a? as /a), or when the owner's intent (RFC 9309's
// decoding of the rules) disallows the plainest.
func resourceTruth(robots, intent *robotstxt.Robots, resource, query string) (allowed bool) {
	plainest := escapeExcept(resource, func(c byte) bool {
		return isUnreservedByte(c) || strings.IndexByte("/!$&'()*+,;=:@", c) >= 0
	})
	mostEncoded := escapeExcept(resource, func(c byte) bool { return isUnreservedByte(c) || c == '/' })
	queries := []string{query, decodeUnreservedQuery(query)}
	if query == "?" {
		queries = append(queries, "")
	}
	for _, q := range queries {
		for _, p := range []string{plainest, mostEncoded} {
			if !robots.Allowed("bot", "http://site.test"+p+q) {
				return false
			}
		}
		if !intent.Allowed("bot", "http://site.test"+plainest+q) {
			return false
		}
	}
	return true
}

// decodeUnreservedQuery decodes the %xx of unreserved bytes in a query.
func decodeUnreservedQuery(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '%' && i+2 < len(q) {
			var c byte
			if _, err := fmt.Sscanf(q[i+1:i+3], "%02X", &c); err == nil && isUnreservedByte(c) {
				b.WriteByte(c)
				i += 2
				continue
			}
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// spellFile writes a decoded path the ways servers read as the same
// path: dot segments (some %2E), runs of slashes, %2F for a slash, %xx of
// any byte in either case, and a trailing "/.", "/", "%2F" or the like.
func spellFile(rng *rand.Rand, p string) string {
	mustEncode := func(c byte) bool {
		return c >= 0x80 || c <= ' ' || strings.IndexByte("%?#[]\"<>\\^`{|}", c) >= 0
	}
	hexOf := func(c byte) string {
		h := fmt.Sprintf("%%%02X", c)
		if rng.IntN(2) == 0 {
			h = strings.ToLower(h)
		}
		return h
	}
	dot := func() string { return []string{".", "%2e", "%2E"}[rng.IntN(3)] }
	var b strings.Builder
	segs := strings.Split(p, "/")[1:]
	for i, seg := range segs {
		if i > 0 || rng.IntN(3) == 0 {
			switch rng.IntN(8) {
			case 0:
				b.WriteString("/" + dot())
			case 1:
				b.WriteString("/" + []string{"x", "private", "public", "r"}[rng.IntN(4)] + "/" + dot() + dot())
			}
		}
		switch {
		case i > 0 && rng.IntN(10) == 0:
			b.WriteString(hexOf('/'))
		case rng.IntN(8) == 0:
			b.WriteString("//")
		default:
			b.WriteByte('/')
		}
		for j := 0; j < len(seg); j++ {
			c := seg[j]
			if mustEncode(c) || rng.IntN(5) == 0 {
				b.WriteString(hexOf(c))
			} else {
				b.WriteByte(c)
			}
		}
	}
	if rng.IntN(3) == 0 {
		b.WriteString([]string{"/.", "/./", "/", "%2f", "%2F", "/%2e", "//", "/x/..", "%2F."}[rng.IntN(9)])
	}
	return b.String()
}

// fileQueries are the queries a spelling is sent with: none most often.
var fileQueries = []string{"", "", "", "", "?", "?session=1", "?a=1&session=2", "?x=1", "?%73ession=1"}

// A fileOutcome is what one request got: refused by the Transport (its
// refusal), or answered with a status and, for a 200, the resource its
// body names, asked for with the query of the last hop.
type fileOutcome struct {
	refusal    *fetch.DisallowedError
	status     int
	resource   string
	query      string
	redirected bool // the server answered with a redirect, followed
}

func getFile(t *testing.T, client *http.Client, url string) fileOutcome {
	t.Helper()
	resp, err := client.Get(url)
	var de *fetch.DisallowedError
	switch {
	case errors.As(err, &de):
		return fileOutcome{refusal: de}
	case err != nil:
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading the body: %v", url, err)
	}
	o := fileOutcome{status: resp.StatusCode, redirected: resp.Request.URL.String() != url}
	if resp.Request.URL.RawQuery != "" || resp.Request.URL.ForceQuery {
		o.query = "?" + resp.Request.URL.RawQuery
	}
	if resp.StatusCode == http.StatusOK {
		r, ok := strings.CutPrefix(string(body), "resource ")
		if !ok {
			t.Fatalf("GET %s: 200 with a body that names no resource: %.80q", url, body)
		}
		o.resource = strings.TrimSuffix(r, "\n")
	}
	return o
}

// overBlockCause names why the Transport refused url, which the server
// answers (direct) with an allowed resource.
func overBlockCause(url string, refusal *fetch.DisallowedError, direct fileOutcome) string {
	sentPath, _, _ := strings.Cut(url, "?")
	readPath, _, _ := strings.Cut(refusal.Reading, "?")
	switch {
	case refusal.Reading == "":
		return "Google's verdict on the URL as sent (the contract: Client.Allowed answers the same)"
	case direct.redirected:
		return "the server reads a disallowed path but answers with a redirect to an allowed one"
	case readPath == sentPath:
		return "the query read with its unreserved %xx decoded (an equivalent URI, RFC 3986 section 6.2.2.2)"
	case strings.Contains(readPath, "%2F"):
		return "a reading that keeps %2F encoded (RFC 3986's normalization; Apache's default), which an Allow written for the decoded path does not meet"
	case strings.Contains(strings.TrimPrefix(readPath, "http://"), "//"):
		return "the reading that keeps repeated slashes (nginx with merge_slashes off), which an Allow written for the merged path does not meet"
	}
	return "another reading: " + refusal.Verdict.Rule.String()
}

// cmpReading names a refusal's reading for a report.
func cmpReading(reading string) string {
	if reading == "" {
		return "sent"
	}
	return "read " + reading
}

// TestTransportSpellingsFileServers sends generated spellings through a
// Transport to every common server, and straight to it.
func TestTransportSpellingsFileServers(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	robots := robotstxt.Parse([]byte(fileRobots()))
	intent := robotstxt.Parse([]byte(fileRobots() + fileIntent))
	files := siteFiles()
	for _, srv := range fileServers {
		t.Run(srv.name, func(t *testing.T) {
			root := writeSite(t)
			addr := srv.start(t, root)
			var d net.Dialer
			base := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			}}
			t.Cleanup(base.CloseIdleConnections)
			through := &http.Client{Transport: fetch.NewTransport(base, "bot", &fetch.Client{HTTPClient: &http.Client{Transport: base}})}
			straight := &http.Client{Transport: base}

			rng := rand.New(rand.NewPCG(32, uint64(len(srv.name))))
			var served, servedDisallowed, refusedDisallowed, refusedNothing, overBlocked, attacks int
			type cause struct {
				count    int
				examples []string
			}
			causes := map[string]cause{} // why a request was refused needlessly
			for i := 0; i < n; i++ {
				file := files[rng.IntN(len(files))]
				if rng.IntN(2) == 0 {
					file = resourceOf(file)
				}
				url := "http://site.test:8080" + spellFile(rng, file) + fileQueries[rng.IntN(len(fileQueries))]
				got := getFile(t, through, url)
				direct := getFile(t, straight, url)
				directAllowed := direct.resource == "" || resourceTruth(robots, intent, direct.resource, direct.query)
				if !directAllowed {
					attacks++
				}
				switch {
				case got.refusal == nil && got.resource != "":
					served++
					if !resourceTruth(robots, intent, got.resource, got.query) {
						servedDisallowed++
						t.Errorf("GET %s served %s%s through the Transport; robots.txt disallows it", url, got.resource, got.query)
					}
				case got.refusal == nil:
					// Not found, forbidden or the like: nothing served.
				case direct.resource == "":
					refusedNothing++
				case !directAllowed:
					refusedDisallowed++
				default:
					overBlocked++
					cause := overBlockCause(url, got.refusal, direct)
					c := causes[cause]
					c.count++
					if len(c.examples) < 2 {
						c.examples = append(c.examples, fmt.Sprintf("%s, refused by %q as %s; the server serves %s%s", url, got.refusal.Verdict.Rule.String(), cmpReading(got.refusal.Reading), direct.resource, direct.query))
					}
					causes[cause] = c
				}
			}
			keys := make([]string, 0, len(causes))
			for k := range causes {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var report strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&report, "\n  %d over-blocked: %s, for example:", causes[k].count, k)
				for _, ex := range causes[k].examples {
					fmt.Fprintf(&report, "\n    %s", ex)
				}
			}
			t.Logf("%s: %d spellings; served through the Transport %d (%d of them disallowed); refused %d that the server serves disallowed, %d that it answers with nothing, %d that it serves allowed (over-blocking)%s",
				srv.name, n, served, servedDisallowed, refusedDisallowed, refusedNothing, overBlocked, report.String())
			// The test proves something only if the server does serve
			// disallowed resources to some spellings sent straight to it,
			// and allowed ones through the Transport.
			if attacks < n/10 || served < n/10 {
				t.Errorf("%s served %d disallowed resources to spellings sent straight and %d resources through the Transport, of %d: too few to prove anything", srv.name, attacks, served, n)
			}
		})
	}
}
