package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrContentEncoding is the error of a robots.txt fetch whose response
// body is in a content coding the Client cannot decode (br, zstd, ...):
// the file cannot be read, and a failure is what it is (RFC 9309 section
// 2.3.1.4), never an empty file that would allow everything.
var ErrContentEncoding = errors.New("robots.txt in a content coding the Client cannot decode")

// decodedBody returns the body of resp with its content codings undone.
// An http.Transport undoes gzip when it asked for it, and says so
// (Response.Uncompressed); but a server may send a coding unasked, and a
// RoundTripper may ask for one itself or not undo it: read as it comes,
// a gzip body is bytes without a single rule, which would allow
// everything. Google's crawlers read gzip, deflate and Brotli (see
// "Overview of Google crawlers and fetchers"); this reads gzip and
// deflate (RFC 9110 section 8.4.1), and any other coding is an error
// wrapping ErrContentEncoding.
func decodedBody(resp *http.Response) (io.Reader, error) {
	var body io.Reader = resp.Body
	if resp.Uncompressed {
		return body, nil
	}
	codings := strings.Split(strings.Join(resp.Header.Values("Content-Encoding"), ","), ",")
	// Codings are listed in the order they were applied (RFC 9110
	// section 8.4): undo the last first.
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		switch coding := strings.ToLower(strings.TrimSpace(codings[i])); coding {
		case "", "identity":
		case "gzip", "x-gzip":
			body, err = gzip.NewReader(body)
		case "deflate":
			body, err = inflate(body)
		default:
			return nil, fmt.Errorf("%w: Content-Encoding %q", ErrContentEncoding, coding)
		}
		if err != nil {
			return nil, fmt.Errorf("the %s coding: %w", codings[i], err)
		}
	}
	return body, nil
}

// inflate reads a deflate body: the zlib format the name means (RFC 9110
// section 8.4.1.2), or the raw deflate stream some servers send instead.
func inflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(2)
	if err != nil {
		return nil, err
	}
	if head[0]&0x0f == 8 && (uint(head[0])<<8|uint(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}
