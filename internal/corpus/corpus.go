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
	dir := Dir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Skipf("no robots.txt corpus (set %s or provide ../shared/corpus beside the repository): %v", Env, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !e.Type().IsRegular() {
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
