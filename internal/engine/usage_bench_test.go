package engine

import (
	"fmt"
	"testing"
)

// BenchmarkUsage measures the evaluation of one URL against a group with
// 50 Content-Usage lines and a Content-Signal line, parsed once.
func BenchmarkUsage(b *testing.B) {
	var prefs usagePreferences
	for i := 0; i < 50; i++ {
		prefs.rules = append(prefs.rules, parseUsageRule(i+1, fmt.Sprintf("/section%d/ train-ai=n, search=y", i)))
	}
	prefs.rules = append(prefs.rules, parseUsageRule(51, "train-ai=y"))
	prefs.signals = append(prefs.signals, parseSignalRule(52, "search=yes, ai-train=no"))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		u := prefs.usageForURL("https://example.com/section42/page.html?q=1", true)
		if u.TrainAI.Line != 43 {
			b.Fatalf("deciding line %d", u.TrainAI.Line)
		}
	}
}

// BenchmarkParseUsageRule measures parsing one Content-Usage value.
func BenchmarkParseUsageRule(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		parseUsageRule(1, "/ai-ok/ train-ai=y, search=n")
	}
}
