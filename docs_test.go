package robotstxt_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documents a newcomer reads hold no dead link: every relative link of
// README.md, BENCHMARKS.md, RELEASING.md and docs/*.md names a file or
// folder of the repository.
func TestDocsLinks(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	docs = append(docs, "README.md", "BENCHMARKS.md", "RELEASING.md")
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	checked := 0
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(src), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, target)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links read: the pattern is broken", checked)
	}
}

// Every commit BENCHMARKS.md names as the code it measured is in the
// repository's history, so that each figure can be reproduced at it.
func TestBenchmarksCommitsExist(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot look the commits up")
	}
	if err := exec.Command("git", "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout (a release archive): no history to look the commits up in")
	}
	if out, _ := exec.Command("git", "rev-parse", "--is-shallow-repository").Output(); strings.TrimSpace(string(out)) == "true" {
		t.Skip("a shallow clone: the commits measured may be older than its history")
	}
	src, err := os.ReadFile("BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	commits := regexp.MustCompile(`(?i)(?:commit|against|at) ([0-9a-f]{7,40})\b`).FindAllStringSubmatch(string(src), -1)
	if len(commits) < 5 {
		t.Fatalf("only %d commits named in BENCHMARKS.md: the pattern is broken", len(commits))
	}
	for _, m := range commits {
		if out, err := exec.Command("git", "cat-file", "-e", m[1]+"^{commit}").CombinedOutput(); err != nil {
			t.Errorf("BENCHMARKS.md names commit %s, which is not in the history: %v %s", m[1], err, out)
		}
	}
}
