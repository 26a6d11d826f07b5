package diff_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/seed50c7eacc/robotstxt/diff"
)

func TestScratchPair(t *testing.T) {
	a, b := os.Getenv("OLD"), os.Getenv("NEW")
	if a == "" {
		t.Skip()
	}
	o, _ := os.ReadFile(a)
	n, _ := os.ReadFile(b)
	start := time.Now()
	r := diff.Compare(o, n)
	fmt.Println("time", time.Since(start))
	for _, c := range r.Crawlers {
		if !c.Decided || c.Changed() {
			fmt.Println(c.Agent, "decided", c.Decided, len(c.Changes))
		}
		for i, ch := range c.Changes {
			if i < 5 {
				fmt.Printf("   %s %s %s | %v | %v\n", ch.Path, ch.Becomes(), ch.Describe(), ch.Old, ch.New)
			}
		}
	}
}
