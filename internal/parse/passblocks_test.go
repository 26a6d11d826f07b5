package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// passPieces are the bytes passBlocks tells apart: line ends alone and in
// pairs, white space (in runs that cross its blocks too), the letters of
// the filters in both cases, the bytes next to them, and text.
var passPieces = []string{"\n", "\r", "\r\n", "\n\r", " ", "\t", "\v", "\f", "\x0e", "\x08", "#",
	"u", "U", "a", "A", "d", "D", "s", "S", "t", "\xd5", "\xf5", "\x00", "*", "-",
	"User-agent: *", "Disallow: /p", "Allow: /q", "Sitemap: /s", "crawl-delay: 1",
	"/abcdefghijklmnopqrstuvwxyz0123456789", "/x", "é", strings.Repeat("/long", 20),
	strings.Repeat(" ", 33), strings.Repeat("\t", 17), "\n    ", "\r\n\t\t"}

// passBlocks, the assembly where it is written, gives passBlocksGo's
// answer on random bodies whose line ends and first bytes fall at every
// place of a block, for each filter's letters.
func TestPassBlocksMatchesGo(t *testing.T) {
	if !swar.AVX2 {
		t.Skip("passBlocks is not written for this CPU: passLines uses the Go code alone")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, f := range []*FirstBytes{AgentLines, MatcherLines} {
		for i := 0; i < 20000; i++ {
			body := randomBody(rng, passPieces, 60)
			if body == "" {
				continue
			}
			// Any start: passBlocks requires a line start at body[0],
			// which every byte is for the tokenizer after a line end;
			// the twin defines the answer from any byte alike.
			from := rng.IntN(len(body))
			s := body[from:]
			wantOff, wantEnds, wantFound := passBlocksGo(s, f.letters)
			off, ends, found := passBlocks(unsafe.StringData(s), len(s), f.letters)
			if off != wantOff || ends != wantEnds || found != wantFound {
				t.Fatalf("passBlocks(%q, %#x) = %d, %d, %v; want %d, %d, %v", s, f.letters, off, ends, found, wantOff, wantEnds, wantFound)
			}
		}
	}
}

// passBlocks reads two blocks at a time as one of 64 bytes: a line end,
// a CR LF pair or a run of white space placed across every byte of the
// first 128, the two blocks' border and the pairs' among them, gives
// passBlocksGo's answer.
func TestPassBlocksBorders(t *testing.T) {
	if !swar.AVX2 {
		t.Skip("passBlocks is not written for this CPU: passLines uses the Go code alone")
	}
	pieces := []string{"\n", "\r", "\r\n", "\nU", "\ru", "\r\nu", "\n" + strings.Repeat(" ", 40) + "u",
		"\n" + strings.Repeat("\t", 70) + "U", "\n" + strings.Repeat(" ", 70) + "x\nu", "\n\v\fd"}
	for _, piece := range pieces {
		for at := 0; at < 128; at++ {
			for _, tail := range []int{1, 40, 100} {
				body := strings.Repeat("x", at) + piece + strings.Repeat("y", tail)
				for _, f := range []*FirstBytes{AgentLines, MatcherLines} {
					wantOff, wantEnds, wantFound := passBlocksGo(body, f.letters)
					off, ends, found := passBlocks(unsafe.StringData(body), len(body), f.letters)
					if off != wantOff || ends != wantEnds || found != wantFound {
						t.Fatalf("passBlocks(%q, %#x) = %d, %d, %v; want %d, %d, %v", body, f.letters, off, ends, found, wantOff, wantEnds, wantFound)
					}
				}
			}
		}
	}
}

// passBlocksGo follows its contract on bodies written by hand: where it
// stops, and how it counts CR LF, CR alone and LF alone.
func TestPassBlocksGo(t *testing.T) {
	pad := strings.Repeat("x", 40)
	for _, tt := range []struct {
		name      string
		body      string
		off, ends int
		found     bool
	}{
		{"too short for a block", "x\nu", 0, 0, false},
		{"user-agent after three lines", "a\nb\r\nc\ruser" + pad, 7, 3, true},
		{"upper case", "x\nUser" + pad, 2, 1, true},
		{"indented line", "x\n\n  u" + pad, 3, 2, true},
		{"indented line of another key", "x\n\n  y\n\tU" + pad, 7, 3, true},
		{"white space alone", "  \n\t\r\nz" + pad + "\n" + pad, 48, 3, false},
		{"a u mid-line does not stop", "xu\ny" + pad + "\n" + pad, 45, 2, false},
		{"CR LF at the block's end counts once", strings.Repeat("x", 31) + "\r\n" + pad, 33, 1, false},
		{"CR at the block's end, then text", strings.Repeat("x", 31) + "\ry" + pad, 32, 1, false},
		{"LF at the block's end: the next block starts a line", strings.Repeat("x", 31) + "\nu" + pad, 32, 1, true},
		{"the first byte is a line start", "u" + pad, 0, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			off, ends, found := passBlocksGo(tt.body, AgentLines.letters)
			if diff := cmp.Diff([]any{tt.off, tt.ends, tt.found}, []any{off, ends, found}); diff != "" {
				t.Errorf("passBlocksGo(%q) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// The filters' letters are what passBlocks tests for; a set that is not
// letters in both cases has none, and is passed over a line at a time.
func TestVectorLetters(t *testing.T) {
	for _, tt := range []struct {
		set  string
		want uint64
		ok   bool
	}{
		{"uU", 'u' | 'u'<<8 | 'u'<<16, true},
		{"uUaAdD", 'a' | 'd'<<8 | 'u'<<16, true},
		{"u", 0, false},
		{"uU#", 0, false},
		{"aAbBcCdD", 0, false},
		{"", 0, false},
	} {
		f := firstBytes(tt.set)
		got, ok := vectorLetters(&f.set)
		if got != tt.want || ok != tt.ok {
			t.Errorf("vectorLetters(%q) = %#x, %v; want %#x, %v", tt.set, got, ok, tt.want, tt.ok)
		}
	}
}

// A filtered tokenizer reads the same lines, and ends in the same state,
// with passBlocks and without, on random bodies of many short lines.
func TestPassLinesVectorTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for i := 0; i < 5000; i++ {
		body := randomBody(rng, passPieces, 120)
		for _, f := range []*FirstBytes{AgentLines, MatcherLines} {
			if diff := cmp.Diff(filteredLines(body, f, false), filteredLines(body, f, true)); diff != "" {
				t.Fatalf("%q, filter %#x (-line at a time +passBlocks):\n%s", body, f.letters, diff)
			}
		}
	}
}

// FuzzPassLines is TestPassLinesVectorTwin on any body.
func FuzzPassLines(f *testing.F) {
	f.Add("User-agent: a\nDisallow: /x\n\nUser-agent: *\r\nAllow: /y\r\n" + strings.Repeat("# comment\n", 10))
	f.Add(strings.Repeat("x\r", 40) + "\r\n u")
	f.Fuzz(func(t *testing.T, body string) {
		for _, flt := range []*FirstBytes{AgentLines, MatcherLines} {
			if diff := cmp.Diff(filteredLines(body, flt, false), filteredLines(body, flt, true)); diff != "" {
				t.Fatalf("%q (-line at a time +passBlocks):\n%s", body, diff)
			}
		}
	})
}

// A readState is a line a filtered tokenizer read, and where it was then.
type readState struct {
	Line
	Pos  int
	Done bool
}

// filteredLines returns the lines a tokenizer filtered by f reads of
// body, by spans, with passBlocks if vector (and the CPU has it).
func filteredLines(body string, f *FirstBytes, vector bool) []readState {
	tok := NewTokenizer(body)
	tok.Filter(f)
	tok.ReadSpans()
	tok.vector = vector && swar.AVX2
	var out []readState
	var l Line
	for tok.Next(&l) {
		out = append(out, readState{l, tok.pos, tok.done})
	}
	return append(out, readState{Line{Num: tok.lines}, tok.pos, tok.done})
}
