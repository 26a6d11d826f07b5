package lint

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt/internal/testsupport/corpus"
)

// lintFamilies are inputs built to make Lint allocate: one byte per line,
// the shortest directives, many groups and agents, files past the size
// limit.
func lintFamilies() []struct {
	name string
	data []byte
} {
	const size = 512000
	fill := func(unit string, n int) []byte {
		return []byte(strings.Repeat(unit, n/len(unit)))
	}
	var groups strings.Builder
	for i := 0; groups.Len() < size-64; i++ {
		fmt.Fprintf(&groups, "user-agent:a%d\nallow:/x%d\n", i%1000, i)
	}
	// Many agents share one group of many rules, and each also has a
	// group of its own: as many agent sets as agents, each with the big
	// group's rules.
	var sets strings.Builder
	const shared = 5000
	for i := range shared {
		fmt.Fprintf(&sets, "user-agent:%s\n", letters(i))
	}
	for i := 0; sets.Len() < size-shared*30; i++ {
		fmt.Fprintf(&sets, "disallow:/x%d\nallow:/y%d\n", i, i)
	}
	for i := range shared {
		fmt.Fprintf(&sets, "user-agent:%s\nallow:/z\n", letters(i))
	}
	var rules strings.Builder
	rules.WriteString("user-agent:*\n")
	for i := 0; rules.Len() < size-64; i++ {
		fmt.Fprintf(&rules, "disallow:/%d\nallow:/%d/*\n", i, i)
	}
	return []struct {
		name string
		data []byte
	}{
		{"newlines-500KiB", fill("\n", size)},
		{"crlf-500KiB", fill("\r\n", size)},
		{"empty-allows-500KiB", append([]byte("user-agent:*\n"), fill("allow:\n", size-13)...)},
		{"agents-500KiB", fill("user-agent:a\n", size)},
		{"groups-500KiB", []byte(groups.String())},
		{"rules-500KiB", []byte(rules.String())},
		{"agent-sets-500KiB", []byte(sets.String())},
		{"newlines-20MB", fill("\n", 20<<20)},
		{"rules-2MB", []byte(strings.Repeat(rules.String(), 4))},
	}
}

// letters returns a distinct agent name for each i, of letters alone (a
// digit would end its product token).
func letters(i int) string {
	b := []byte{'a'}
	for ; i > 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// BenchmarkLintFamilies reports, per family, the bytes and allocations of
// one Lint call; x-read is the bytes allocated per byte Lint reads (the
// size limit's worth at most).
func BenchmarkLintFamilies(b *testing.B) {
	for _, f := range lintFamilies() {
		b.Run(f.name, func(b *testing.B) {
			read := min(len(f.data), 512000)
			b.SetBytes(int64(read))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < b.N; i++ {
				Lint(f.data)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(read), "x-read")
		})
	}
}

// BenchmarkLintCorpus lints every corpus file once per iteration.
func BenchmarkLintCorpus(b *testing.B) {
	_, files := corpus.Load(b, 0)
	b.SetBytes(corpus.Size(files))
	b.ReportAllocs()
	b.ResetTimer() // B/op and allocs/op count Lint, not the reading of the files
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Lint(f)
		}
	}
}

// Lint allocates in proportion to the bytes within the size limit, not to
// the input: 20 MB of newlines (20 million lines, of which Googlebot reads
// 512,000) stays within the bound (it took 1.25 GB before the limit
// applied to the per-line view). Every family stays within 9 bytes per
// byte read (BENCHMARKS.md has the figures: 3.1-8.2; the per-line view
// alone costs 8 bytes a line).
func TestLintMemoryBound(t *testing.T) {
	for _, f := range lintFamilies() {
		read := min(len(f.data), 512000)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Lint(f.data)
		runtime.ReadMemStats(&after)
		if ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(read); ratio > 9 {
			t.Errorf("%s: Lint allocated %.1f bytes per byte read; want at most 9", f.name, ratio)
		}
	}
}
