package robotstxt

import "io"

// readBody reads r up to limit bytes, or to its end. When size, the
// response's Content-Length, is known, it reads into one buffer of size+1
// bytes (at most limit: the byte more lets the last read see the end
// without growing it), grown as append grows only if r has more than it
// announced; else it reads as io.ReadAll does. It returns what it read,
// and the error that stopped it before the end or the limit.
func readBody(r io.Reader, size int64, limit int) ([]byte, error) {
	if size < 0 {
		return io.ReadAll(io.LimitReader(r, int64(limit)))
	}
	buf := make([]byte, 0, min(size, int64(limit-1))+1)
	for len(buf) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), limit)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
