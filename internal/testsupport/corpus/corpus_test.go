package corpus

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// skipRecorder is a testing.TB that records Skip's message instead of
// ending the test.
type skipRecorder struct {
	testing.TB
	msg string
}

func (s *skipRecorder) Helper() {}

// Skip records the message and ends the goroutine, as testing's does.
func (s *skipRecorder) Skip(args ...any) {
	s.msg = args[0].(string)
	runtime.Goexit()
}

// A test without a corpus says what the corpus is, where to get one, and
// which variable or directory to point at it.
func TestSkipMessageSaysHowToGetOne(t *testing.T) {
	for _, tt := range []struct{ name, env string }{{"corpus", Env}, {"corpus-2025", Env2025}} {
		msg := skipMessage(tt.name, tt.env, errors.New("open ../shared/x: no such file or directory"))
		for _, want := range []string{tt.env + "=DIR", "../shared/" + tt.name, "robots.txt files", "Collect", "no such file"} {
			if tt.name == "corpus" && want == "Collect" {
				want = "https://commoncrawl.org"
			}
			if !strings.Contains(msg, want) {
				t.Errorf("%s: skip message %q does not say %q", tt.name, msg, want)
			}
		}
		rec := &skipRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			load(rec, t.TempDir()+"/missing", tt.env, tt.name, 0, false)
		}()
		<-done
		if !strings.HasPrefix(rec.msg, "skipped: no robots.txt "+tt.name) {
			t.Errorf("load of a missing %s: skipped with %q", tt.name, rec.msg)
		}
	}
}
