package robotstxt_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/reference"
)

// firstQuestionPathSizes are the path lengths of the first-question
// benchmarks: the goal is every question under 2 ms for paths up to 16 KiB.
var firstQuestionPathSizes = []int{100, 1 << 10, 16 << 10}

// firstQuestionFiles are the hostile families, and files of many stars:
// one line of them, and many rules of them ending in '$'.
func firstQuestionFiles() []reference.HostileFamily {
	families := reference.HostileFamilies(robotstxt.DefaultMaxSize)
	const size = robotstxt.DefaultMaxSize
	head := "User-agent: *\nDisallow: /"
	families = append(families,
		reference.HostileFamily{Name: "one-star-line", File: []byte(head + strings.Repeat("*", size-len(head)-1) + "\n"),
			Path: func(n int) string { return "/" + strings.Repeat("a", max(n-1, 0)) }},
		reference.HostileFamily{Name: "many-stars-anchored", File: manyStarsAnchored(size),
			Path: func(n int) string { return "/" + strings.Repeat("a", max(n-1, 0)) }},
	)
	return families
}

// manyStarsAnchored returns a "*" group of rules "/*a*a...*a*b$" of 64
// stars each, which a path of 'a' bytes matches up to the final piece.
func manyStarsAnchored(size int) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; ; i++ {
		line := "Disallow: /" + strings.Repeat("*a", 63) + "*" + string(rune('b'+i%20)) + "$\n"
		if b.Len()+len(line) > size {
			return []byte(b.String())
		}
		b.WriteString(line)
	}
}

// BenchmarkFirstQuestionHostile measures, per hostile family and path
// length, what a crawler pays for a fresh file: Parse and the first
// question ("first"), and the second question alone, Parse and the first
// being left out of the time ("second"). "compile" is Parse and the
// compile alone, which the first question of a hostile file includes.
func BenchmarkFirstQuestionHostile(b *testing.B) {
	for _, f := range firstQuestionFiles() {
		b.Run(f.Name+"/compile", func(b *testing.B) {
			b.SetBytes(int64(len(f.File)))
			for i := 0; i < b.N; i++ {
				robotstxt.Parse(f.File).Sitemaps() // compiles
			}
		})
		for _, n := range firstQuestionPathSizes {
			url := "https://example.com" + f.Path(n)
			b.Run(fmt.Sprintf("%s/path=%d/first", f.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(f.File)))
				for i := 0; i < b.N; i++ {
					robotstxt.Parse(f.File).Allowed("Googlebot", url)
				}
			})
			b.Run(fmt.Sprintf("%s/path=%d/second", f.Name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					r := robotstxt.Parse(f.File)
					r.Allowed("Googlebot", url)
					b.StartTimer()
					r.Allowed("Googlebot", url)
				}
			})
		}
	}
}

// hostileQuestions is how many questions a fresh hostile file is asked
// (BenchmarkHostileQuestions, BenchmarkSlowestQuestion,
// TestQuestionInstructions): enough to pass every part of its compile and
// of its index, the last of a 500 KiB file's by its 93rd question (40,
// the window before, read none of the index's later parts, of up to
// 8.3 M instructions).
const hostileQuestions = 128

// BenchmarkHostileQuestions asks a fresh hostile file hostileQuestions
// questions (Parse and the first included in the first) and reports the
// slowest question of a typical round ("worst-ms", the median over the
// rounds of each round's slowest) and which question that was
// ("worst-at"): besides the first, the questions that do a part of the
// compile or of the rule index can be the slow ones. "slowest-q-ms" is
// the slowest question by its median over the rounds: on a noisy
// machine, a round's slowest is often a question that a pause of the
// machine made slow, not one that does more.
func BenchmarkHostileQuestions(b *testing.B) {
	const questions = hostileQuestions
	for _, f := range firstQuestionFiles() {
		for _, n := range []int{100, 16 << 10} {
			url := "https://example.com" + f.Path(n)
			b.Run(fmt.Sprintf("%s/path=%d", f.Name, n), func(b *testing.B) {
				type round struct {
					worst time.Duration
					at    int
				}
				rounds := make([]round, 0, b.N)
				var times [questions][]time.Duration // of each question, over the rounds
				for i := 0; i < b.N; i++ {
					var r round
					start := time.Now()
					robots := robotstxt.Parse(f.File)
					for q := 1; q <= questions; q++ {
						robots.Allowed("Googlebot", url)
						d := time.Since(start)
						if d > r.worst {
							r = round{d, q}
						}
						times[q-1] = append(times[q-1], d)
						start = time.Now()
					}
					rounds = append(rounds, r)
				}
				slices.SortFunc(rounds, func(x, y round) int { return cmp.Compare(x.worst, y.worst) })
				median := rounds[len(rounds)/2]
				b.ReportMetric(float64(median.worst.Microseconds())/1000, "worst-ms")
				b.ReportMetric(float64(median.at), "worst-at")
				var slowest time.Duration
				for q := range times {
					slices.Sort(times[q])
					slowest = max(slowest, times[q][len(times[q])/2])
				}
				b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-q-ms")
			})
		}
	}
}
