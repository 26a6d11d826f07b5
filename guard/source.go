package guard

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/seed50c7eacc/robotstxt"
)

// FileSource returns a function for NewFunc that reads the robots.txt
// file at path, at most robotstxt.DefaultMaxSize bytes (what Parse reads
// and one byte more, so that a cut file says so), and reads it again
// when its size or modification time changes, looking at most once per
// interval (zero means once a second). The first read happens now; its
// error is returned. A later read that fails keeps the last copy: a file
// being replaced never turns into an empty one that allows everything.
func FileSource(path string, interval time.Duration) (func() []byte, error) {
	if interval <= 0 {
		interval = time.Second
	}
	s := &fileSource{path: path, interval: interval}
	if err := s.read(time.Now()); err != nil {
		return nil, err
	}
	return s.current, nil
}

type fileSource struct {
	path     string
	interval time.Duration

	mu      sync.Mutex
	body    []byte
	size    int64
	mod     time.Time
	checked time.Time
}

func (s *fileSource) current() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := time.Now(); now.Sub(s.checked) >= s.interval {
		s.checked = now
		if fi, err := os.Stat(s.path); err == nil && (fi.Size() != s.size || !fi.ModTime().Equal(s.mod)) {
			s.readLocked(fi)
		}
	}
	return s.body
}

func (s *fileSource) read(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checked = now
	fi, err := os.Stat(s.path)
	if err != nil {
		return err
	}
	return s.readLocked(fi)
}

func (s *fileSource) readLocked(fi os.FileInfo) error {
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, robotstxt.DefaultMaxSize+1))
	if err != nil {
		return err
	}
	s.body, s.size, s.mod = body, fi.Size(), fi.ModTime()
	return nil
}
