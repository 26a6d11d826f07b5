package servers

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// skipRecorder keeps the skip Find asks for instead of ending the test.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Helper() {}

func (r *skipRecorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
}

func TestFind(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh in PATH")
	}
	r := &skipRecorder{TB: t}
	if got := Find(r, "sh", "dash", "nothing"); got != sh || r.skipped != "" {
		t.Errorf("Find(sh) = %q (skipped %q), want %q", got, r.skipped, sh)
	}
	if got := Find(r, "no-such-server-here", "pkg", "nothing", "/no/such/place", sh); got != sh || r.skipped != "" {
		t.Errorf("Find with a place that exists = %q (skipped %q), want %q", got, r.skipped, sh)
	}
	Find(r, "no-such-server-here", "the-package", "the thing under test", "/no/such/place")
	for _, want := range []string{"SKIPPED: no-such-server-here is not installed", "Untested: the thing under test", "apt-get install -y the-package"} {
		if !strings.Contains(r.skipped, want) {
			t.Errorf("the skip message lacks %q:\n%s", want, r.skipped)
		}
	}
}

func TestFreePortListens(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:"+FreePort(t))
	if err != nil {
		t.Fatalf("FreePort's port is not free: %v", err)
	}
	l.Close()
}

func TestDirIsOpen(t *testing.T) {
	fi, err := os.Stat(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o005 != 0o005 {
		t.Errorf("Dir's mode %v: others cannot read and search it", fi.Mode())
	}
}
