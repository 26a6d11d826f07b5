package robotstxt_test

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// The states a crawler's parsed files reach, and the heap each keeps per
// byte of input over the corpus: right after Parse; after q questions
// spread over a agents (a crawler's fleet asks as a few agents at most);
// compiled whole (Sitemaps compiles), and compiled then asked 100
// questions from five agents, which builds the lazy indexes of large
// sets.
// The string/ states parse with ParseString the files made strings in the
// measured span, so that the strings ParseString keeps count as kept.
type retainedState struct {
	name       string
	questions  int
	agents     int
	compile    bool
	fromString bool
}

func retainedStates() []retainedState {
	states := []retainedState{{name: "parsed"}}
	for _, a := range []int{1, 2, 5} {
		for _, q := range []int{1, 10, 100, 1000} {
			states = append(states, retainedState{name: fmt.Sprintf("q=%d/agents=%d", q, a), questions: q, agents: a})
		}
	}
	states = append(states,
		retainedState{name: "compiled", compile: true},
		retainedState{name: "compiled/q=100/agents=5", compile: true, questions: 100, agents: 5})
	for _, s := range states[:len(states):len(states)] {
		s.name, s.fromString = "string/"+s.name, true
		states = append(states, s)
	}
	return states
}

// retainedAgents are the agents the states ask as, in turn.
var retainedAgents = []string{"Googlebot", "bingbot", "Slurp", "DuckDuckBot", "YandexBot"}

// retainedURLs are paths of the kinds a crawler asks: the root, searches,
// pages under a directory.
func retainedURL(q int) string {
	switch q % 3 {
	case 0:
		return "https://example.com/"
	case 1:
		return "https://example.com/search?q=" + strconv.Itoa(q)
	}
	return "https://example.com/product/" + strconv.Itoa(q) + "/page.html"
}

// measureRetained returns the heap kept by files parsed and brought to
// state s, per byte of input. The heap is read after two collections, the
// second of which frees what the first left in the pools' victim caches.
func measureRetained(files [][]byte, s retainedState) float64 {
	total := 0
	for _, f := range files {
		total += len(f)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([]*robotstxt.Robots, len(files))
	for i, f := range files {
		var r *robotstxt.Robots
		if s.fromString {
			r = robotstxt.ParseString(string(f))
		} else {
			r = robotstxt.Parse(f)
		}
		if s.compile {
			r.Sitemaps()
		}
		for q := range s.questions {
			r.Allowed(retainedAgents[q%s.agents], retainedURL(q))
		}
		kept[i] = r
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(total)
}

// The bars of issue 33: at most retainedBar bytes kept a byte of input in
// every state, at most compiledBar once the whole file is compiled (a
// fifth agent compiles it, as Sitemaps does).
const (
	retainedBar = 1.15
	compiledBar = 1.0
)

// bar returns the bar state s is held to.
func (s retainedState) bar() float64 {
	if s.compile || s.agents >= 5 && s.questions >= 5 {
		return compiledBar
	}
	return retainedBar
}

// BenchmarkRetainedStates reports the bytes kept per byte of input over
// the corpus in each state of retainedStates (retained-B/B), and the bar
// the state is held to (bar-B/B). Run it with -benchtime 1x: each state
// parses and asks the whole corpus.
func BenchmarkRetainedStates(b *testing.B) {
	_, files := loadCorpus(b)
	for _, s := range retainedStates() {
		b.Run(s.name, func(b *testing.B) {
			var ratio float64
			for i := 0; i < b.N; i++ {
				ratio = measureRetained(files, s)
			}
			b.ReportMetric(ratio, "retained-B/B")
			b.ReportMetric(s.bar(), "bar-B/B")
		})
	}
}
