// Package corpus loads the corpus of real robots.txt files that tests and
// benchmarks read, and builds a crawler's queries from them. It serves the
// tests of every package of the module and of the nested bench module.
package corpus

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// Env names a directory of real robots.txt files. Without it, Load looks
// for shared/corpus beside the repository (../shared/corpus from its root).
const Env = "ROBOTSTXT_CORPUS"

// Dir returns the corpus directory: $ROBOTSTXT_CORPUS, or the first
// shared/corpus found beside the working directory or one of its parents.
func Dir() string {
	if dir := os.Getenv(Env); dir != "" {
		return dir
	}
	up := ".."
	for i := 0; i < 4; i++ {
		dir := filepath.Join(up, "shared", "corpus")
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
		up = filepath.Join(up, "..")
	}
	return filepath.Join("..", "shared", "corpus")
}

// Load returns the corpus files sorted by name, each cut at max bytes when
// max > 0. It skips tb when there is no corpus.
func Load(tb testing.TB, max int) (names []string, files [][]byte) {
	tb.Helper()
	return load(tb, Dir(), Env, "corpus", max, false)
}

// about says, for a skip message, what each corpus is and where to get one.
var about = map[string]string{
	"corpus": "a directory of real robots.txt files, one file per site (the project's CI reads one of about 2,100). " +
		"Any such collection will do: fetch https://SITE/robots.txt for the sites you crawl " +
		"(for example: while read s; do curl -sfL \"https://$s/robots.txt\" -o \"DIR/$s\"; done < sites.txt), " +
		"or take the robots.txt captures Common Crawl publishes with each crawl (its robotstxt/ segments, https://commoncrawl.org/get-started)",
	"corpus-2025": "a directory of robots.txt files sites served in 2025 and early 2026, one file per site and month in which it changed " +
		"(the project's CI reads one of 567 news, social and academic sites). Collect one as for ROBOTSTXT_CORPUS, " +
		"from files fetched in 2025 or later: the tests count what recent files say to AI crawlers",
}

// skipMessage is what a test says when a corpus is missing: what it is,
// where to get one, and where to put it.
func skipMessage(name, env string, err error) string {
	return "skipped: no robots.txt " + name + " (" + err.Error() + "). This test reads " + about[name] +
		". Set " + env + "=DIR, or put the directory at ../shared/" + name + " beside the repository."
}

// Env2025 names a directory of robots.txt files served in 2025 and early
// 2026 (news, social and academic sites, one file per site and month in
// which it changed). Without it, Load2025 looks for shared/corpus-2025
// beside the repository.
const Env2025 = "ROBOTSTXT_CORPUS_2025"

// Dir2025 returns the 2025 corpus directory: $ROBOTSTXT_CORPUS_2025, or the
// first shared/corpus-2025 found beside the working directory or one of
// its parents.
func Dir2025() string {
	if dir := os.Getenv(Env2025); dir != "" {
		return dir
	}
	up := ".."
	for i := 0; i < 4; i++ {
		dir := filepath.Join(up, "shared", "corpus-2025")
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
		up = filepath.Join(up, "..")
	}
	return filepath.Join("..", "shared", "corpus-2025")
}

// Load2025 returns the files of the 2025 corpus as Load does; its LICENSE*
// and README* files, which are not robots.txt, are left out. It skips tb
// when there is no such corpus.
func Load2025(tb testing.TB, max int) (names []string, files [][]byte) {
	tb.Helper()
	return load(tb, Dir2025(), Env2025, "corpus-2025", max, true)
}

// load reads the regular files of dir; skipNotes leaves out LICENSE* and
// README* files (the first corpus keeps them, as its counts always have).
func load(tb testing.TB, dir, env, name string, max int, skipNotes bool) (names []string, files [][]byte) {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Skip(skipMessage(name, env, err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !e.Type().IsRegular() || skipNotes && (strings.HasPrefix(e.Name(), "LICENSE") || strings.HasPrefix(e.Name(), "README")) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		if max > 0 && len(data) > max {
			data = data[:max]
		}
		names = append(names, e.Name())
		files = append(files, data)
	}
	if len(files) == 0 {
		tb.Skipf("corpus %s is empty", dir)
	}
	return names, files
}

// Size returns the bytes of all files.
func Size(files [][]byte) int64 {
	n := 0
	for _, f := range files {
		n += len(f)
	}
	return int64(n)
}

// Queries returns what a crawler asks of one file: well-known agents and
// up to four the file names, against ordinary pages and URLs made from the
// file's own rules (up to twelve URLs). Every agent is asked about every
// URL.
func Queries(file []byte) (agents, urls []string) {
	agents = []string{"Googlebot", "bingbot"}
	urls = []string{"https://example.com/", "https://example.com/index.html", "https://example.com/products/item?id=42"}
	unstar := strings.NewReplacer("*", "x", "$", "")
	gr := parse.NewGrouper(string(file))
	var l parse.Grouped
	for gr.Next(&l) {
		switch l.Role {
		case parse.RoleAgent:
			if t := parse.ProductToken(l.Value); t != "" && len(agents) < 6 {
				agents = append(agents, t)
			}
		case parse.RoleRule:
			if len(urls) >= 12 {
				continue
			}
			p := unstar.Replace(l.Value)
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			urls = append(urls, "https://example.com"+p+"page.html")
		}
	}
	return agents, urls
}

// ManyAgents returns the agents of the many-agent workload for one file:
// the product tokens its user-agent lines name, in order of first
// appearance, each once (ignoring case) and without "*"; each of them
// followed by "/1.0", which Google compares whole with a line's token and
// so never selects that group; then Googlebot, bingbot and UnknownBot,
// each unless the file names it already.
func ManyAgents(file []byte) []string {
	var named []string
	gr := parse.NewGrouper(string(file))
	var l parse.Grouped
	for gr.Next(&l) {
		if l.Role != parse.RoleAgent {
			continue
		}
		if t := parse.ProductToken(l.Value); t != "" && !containsFold(named, t) {
			named = append(named, t)
		}
	}
	agents := append([]string(nil), named...)
	for _, n := range named {
		agents = append(agents, n+"/1.0")
	}
	for _, a := range []string{"Googlebot", "bingbot", "UnknownBot"} {
		if !containsFold(named, a) {
			agents = append(agents, a)
		}
	}
	return agents
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
