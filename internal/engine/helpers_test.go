package engine

import (
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// The engine's tests build Files as robotstxt.Parse does, and check them
// against the reference model (package reference), as the root package's
// contract tests check the API.

// maxSize is robotstxt.DefaultMaxSize, which the corpus is cut at.
const maxSize = 512000

// load returns the File of data, as robotstxt.Parse makes it (but for the
// size limit, which is the caller's).
func load(data []byte) *File {
	f := new(File)
	f.Load(data)
	return f
}

// loadCorpus returns the corpus files, each cut at maxSize.
func loadCorpus(tb testing.TB) (names []string, files [][]byte) { return corpus.Load(tb, maxSize) }

// crawlerQuery is one Allowed call of a crawler's workload.
type crawlerQuery struct {
	file       *File
	agent, url string
}

// crawlerQueries builds a crawler's queries of each corpus file (see
// corpus.Queries).
func crawlerQueries(files [][]byte) []crawlerQuery {
	var qs []crawlerQuery
	for _, data := range files {
		f := load(data)
		agents, urls := corpus.Queries(data)
		for _, a := range agents {
			for _, u := range urls {
				qs = append(qs, crawlerQuery{f, a, u})
			}
		}
	}
	return qs
}

// compareWithReference fails t when f and the reference model disagree on
// a query.
func compareWithReference(t *testing.T, body []byte, ref *reference.Model, f *File, agent, url string) {
	t.Helper()
	ref.Compare(t, body, matcherOf(f), agent, url)
}

// matcherOf returns f as the reference package's comparisons see it.
func matcherOf(f *File) reference.Matcher {
	return reference.Matcher{
		Explain: func(agent, url string) (bool, int) {
			v := f.Explain(agent, url)
			return v.Allowed, v.Rule.Line
		},
		Allowed: f.Allowed,
	}
}

// usage returns the Usage of url for agent, as robotstxt.Robots.Usage
// finds it.
func (f *File) usage(agent, url string) Usage {
	rs, _ := f.Rules(agent)
	return rs.Usage(url)
}

// compareWithOracle fails t where the File of body and Google's library
// answer one of qs differently; see reference.CompareWithOracle.
func compareWithOracle(t *testing.T, name string, oracle string, body []byte, qs []reference.Query) int {
	t.Helper()
	return reference.CompareWithOracle(t, name, oracle, body, matcherOf(load(body)), qs)
}

// raceShare is n without the race detector and a quarter of it (at least
// 1) with it: the count of random inputs a twin test checks. The full
// count runs in every test run without -race.
func raceShare(n int) int {
	if raceEnabled {
		return max(1, n/4)
	}
	return n
}

// raceSkip says whether the twin tests that walk the corpus leave out its
// i-th file under the race detector, where they check every fourth.
func raceSkip(i int) bool { return raceEnabled && i%4 != 0 }
