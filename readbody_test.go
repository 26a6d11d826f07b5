package robotstxt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
)

// readBody reads what io.ReadAll of the body cut at the limit reads,
// whatever Content-Length says (the reader may hold more or less than it
// announced) and however the reader splits its reads; a length announced
// under the limit sizes its buffer to one byte more.
func TestReadBody(t *testing.T) {
	const limit = DefaultMaxSize + 1
	readers := map[string]func([]byte) io.Reader{
		"whole":    func(b []byte) io.Reader { return bytes.NewReader(b) },
		"one byte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
		"halves":   func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
		"data+EOF": func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) },
	}
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 100_000, limit - 2, limit - 1, limit, limit + 7, 2 * limit} {
		body := bytes.Repeat([]byte("Disallow: /x\n"), n/13+1)[:n]
		want := body[:min(n, limit)]
		for _, hint := range []int64{int64(n), -1, int64(n) / 2, int64(n) + 1000, 1 << 62} {
			for name, reader := range readers {
				if name == "one byte" && n > 100_000 {
					continue // as the others, a byte a call
				}
				got, err := readBody(reader(body), hint, limit)
				if err != nil {
					t.Fatalf("%d bytes, length %d, %s reads: %v", n, hint, name, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%d bytes, length %d, %s reads: read %d bytes, want %d", n, hint, name, len(got), len(want))
				}
				if hint == int64(n) && n < limit && cap(got) != n+1 {
					t.Errorf("%d bytes, length announced, %s reads: capacity %d, want %d", n, name, cap(got), n+1)
				}
			}
		}
	}
}

// A reader's error is returned with what was read before it.
func TestReadBodyError(t *testing.T) {
	failing := io.MultiReader(strings.NewReader("User-agent: *\n"), iotest.ErrReader(errors.New("connection reset by peer")))
	got, err := readBody(failing, -1, DefaultMaxSize+1)
	if err == nil || err.Error() != "connection reset by peer" || string(got) != "User-agent: *\n" {
		t.Errorf("read %q, error %v; want the first line and the reader's error", got, err)
	}
}

// A reusable body for allocation counts: the response is made once.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// FromResponse reads a body whose length is announced into one buffer and
// keeps it: two allocations (the buffer and the Robots), where a body of
// unknown length, read as io.ReadAll reads and then copied, takes 19 for
// 100,000 bytes.
func TestFromResponseReadsOnce(t *testing.T) {
	data := bytes.Repeat([]byte("Disallow: /x\n"), 100_000/13)
	body := &rewindBody{}
	resp := &http.Response{StatusCode: http.StatusOK, Body: body, ContentLength: int64(len(data))}
	allocs := testing.AllocsPerRun(50, func() {
		body.Reset(data)
		if _, err := FromResponse(resp); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 2 {
		t.Errorf("%v allocations a call with Content-Length %d, want 2", allocs, len(data))
	}
	resp.ContentLength = -1
	unknown := testing.AllocsPerRun(50, func() {
		body.Reset(data)
		if _, err := FromResponse(resp); err != nil {
			t.Fatal(err)
		}
	})
	if unknown <= allocs {
		t.Errorf("%v allocations without Content-Length, %v with it: the doubling did not show", unknown, allocs)
	}
}

// BenchmarkFromResponse reads and parses a body from memory, its length
// announced or not, and asks one question, as a crawler does with each
// robots.txt it fetches.
func BenchmarkFromResponse(b *testing.B) {
	line := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n# a comment line\n")
	for _, size := range []int{1 << 10, 16 << 10, 256 << 10} {
		data := bytes.Repeat(line, size/len(line)+1)[:size]
		for _, announced := range []bool{true, false} {
			b.Run(fmt.Sprintf("size=%d/length=%v", size, announced), func(b *testing.B) {
				body := &rewindBody{}
				resp := &http.Response{StatusCode: http.StatusOK, Body: body, ContentLength: -1}
				if announced {
					resp.ContentLength = int64(len(data))
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					body.Reset(data)
					r, err := FromResponse(resp)
					if err != nil {
						b.Fatal(err)
					}
					r.Allowed("Googlebot", "https://example.com/private/x")
				}
			})
		}
	}
}
