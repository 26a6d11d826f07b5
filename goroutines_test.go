package robotstxt_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// No call leaves a goroutine running. Crawler test suites often check
// that none is left when a test ends (go.uber.org/goleak does), and work
// done apart would also keep memory and CPU after the caller is done. The
// files hold 4,096 rules or more, the size from which the engine builds a
// rule set's index and a file's compile in parts: every hostile family
// (one group of tens of thousands of rules, compiled in parts), a large
// "*" group of plain rules on long paths (a scoped set with an index built
// in parts), and a file of many groups (compiled whole, with a large set's
// index built in parts). Each is asked hostileQuestions questions,
// enough to pass every part (a 500 KiB hostile file's index is built by
// its 93rd), at GOMAXPROCS 1, 2 and 8.
func TestNoGoroutineOutlivesACall(t *testing.T) {
	files := map[string][]byte{}
	for _, f := range reference.HostileFamilies(200 << 10) {
		files[f.Name] = f.File
	}
	var long, groups strings.Builder
	long.WriteString("User-agent: *\n")
	for i := range 5000 {
		fmt.Fprintf(&long, "Disallow: /%s/%d*x\nAllow: /%s/%d/ok\n", strings.Repeat("section", 8), i, strings.Repeat("section", 8), i)
	}
	files["long-plain"] = []byte(long.String())
	for g := range 6 {
		fmt.Fprintf(&groups, "User-agent: bot%d\n", g)
		for i := range 4500 {
			fmt.Fprintf(&groups, "Disallow: /*p%d*q%d\n", i, g)
		}
	}
	files["many-groups"] = []byte(groups.String())
	urls := []string{"/a", "/section/1/x", "/" + strings.Repeat("abcdefgh", 2000), "/p1/q2", "/sectionsectionsectionsectionsectionsectionsectionsection/7/ok"}
	agents := []string{"Googlebot", "bingbot", "bot1", "bot2", "bot3", "bot4", "bot5", "other"}
	for _, procs := range []int{1, 2, 8} {
		t.Run(fmt.Sprint("procs=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for name, body := range files {
				r := robotstxt.Parse(body)
				check := func(q int, call string, ask func()) {
					t.Helper()
					before := runtime.NumGoroutine()
					ask()
					// More after the call than before can only be one the
					// call left; fewer, one of another test ending.
					if after := runtime.NumGoroutine(); after > before {
						t.Fatalf("%s, question %d (%s): %d goroutines after the call, %d before", name, q, call, after, before)
					}
				}
				for q := range hostileQuestions {
					agent, url := agents[q%len(agents)], urls[q%len(urls)]
					check(q, "Allowed", func() { r.Allowed(agent, url) })
					check(q, "Explain", func() { r.Explain(agent, url) })
				}
				check(40, "Agent", func() { r.Agent("Googlebot").Allowed(urls[2]) })
				check(41, "Allowed(data)", func() { robotstxt.Allowed(body, "Googlebot", urls[2]) })
			}
		})
	}
}
