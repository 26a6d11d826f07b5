package robotstxt_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seed50c7eacc/robotstxt"
)

// ownedCopy returns a copy of data with no room to spare, which
// ParseOwned keeps rather than copies.
func ownedCopy(data []byte) []byte {
	owned := make([]byte, len(data))
	copy(owned, data)
	return owned
}

// ParseOwned answers as Parse, whether it keeps the slice (no room to
// spare) or copies it (room to spare): it differs only in what it keeps
// (its documentation). The files are those of ParseString's test, which
// end in each way that matters to what is kept.
func TestParseOwnedAnswersAsParse(t *testing.T) {
	compareParseOwned(t, keptEndings())
}

// compareParseOwned fails t where ParseOwned, of a slice it keeps or of
// one it copies, and Parse answer a file of files differently.
func compareParseOwned(t *testing.T, files [][]byte) {
	t.Helper()
	compareWithParse(t, "ParseOwned", files, func(data []byte) *robotstxt.Robots {
		return robotstxt.ParseOwned(ownedCopy(data))
	})
	compareWithParse(t, "ParseOwned with room to spare", files, func(data []byte) *robotstxt.Robots {
		return robotstxt.ParseOwned(append(make([]byte, 0, 2*len(data)+16), data...))
	})
}

// ParseOwned keeps a slice with up to an eighth of its length to spare,
// allocating only the Robots, and copies one with more (two allocations:
// the Robots and the copy), so that a buffer grown by doubling is not
// kept with its spare half.
func TestParseOwnedKeepsOrCopies(t *testing.T) {
	text := "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n"
	for _, tc := range []struct {
		spare, allocs int
	}{{0, 1}, {1, 1}, {len(text) / 8, 1}, {len(text)/8 + 1, 2}, {len(text), 2}} {
		body := append(make([]byte, 0, len(text)+tc.spare), text...)
		if got := testing.AllocsPerRun(100, func() { robotstxt.ParseOwned(body) }); int(got) != tc.allocs {
			t.Errorf("%d bytes to spare: %v allocations, want %d", tc.spare, got, tc.allocs)
		}
	}
}

// The Robots of a kept slice reads its bytes: a write to them before the
// first question, which ParseOwned's contract forbids, shows in the
// answers. The test shows that the slice is kept, not that writing it is
// supported.
func TestParseOwnedKeepsTheSlice(t *testing.T) {
	body := ownedCopy([]byte("User-agent: *\nDisallow: /private/\n"))
	r := robotstxt.ParseOwned(body)
	copy(body[bytes.Index(body, []byte("/private/")):], "/public//")
	if !r.Allowed("x", "https://example.com/private/a") || r.Allowed("x", "https://example.com/public//a") {
		t.Error("the answers are those of the bytes at the call: ParseOwned copied them")
	}
}

// ParseOwnedWith reads as far as ParseWith, and reports a cut file as
// truncated (Google's docs, "File format": 500 KiB); the cut file is
// copied, so that the rest of the slice is not kept.
func TestParseOwnedSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	data := []byte(head + strings.Repeat("#", robotstxt.DefaultMaxSize-len(head)-1) + "\nDisallow: /b\n")
	r := robotstxt.ParseOwned(ownedCopy(data))
	if !r.Truncated() || r.Size() != robotstxt.DefaultMaxSize || !r.Allowed("x", "/b") || r.Allowed("x", "/a") {
		t.Errorf("ParseOwned: Truncated() = %v, Size() = %d, /b allowed %v, /a allowed %v; want true, %d, true, false",
			r.Truncated(), r.Size(), r.Allowed("x", "/b"), r.Allowed("x", "/a"), robotstxt.DefaultMaxSize)
	}
	all := robotstxt.ParseOwnedWith(ownedCopy(data), robotstxt.Options{MaxSize: -1})
	if all.Truncated() || all.Size() != len(data) || all.Allowed("x", "/b") {
		t.Errorf("MaxSize -1: Truncated() = %v, Size() = %d, /b allowed %v; want false, %d, false", all.Truncated(), all.Size(), all.Allowed("x", "/b"), len(data))
	}
}
