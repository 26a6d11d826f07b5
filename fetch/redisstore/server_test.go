package redisstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/servers"
)

// redisServer is a redis-server process started for a test, on a loopback
// port in a temporary directory, with persistence off.
type redisServer struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	args []string // extra redis-server arguments
	cmd  *exec.Cmd
}

// startRedis starts redis-server, with extra arguments if any, or skips
// the test loudly when the binary is missing (CI installs Debian's
// redis-server package).
func startRedis(t testing.TB, args ...string) *redisServer {
	t.Helper()
	bin := servers.Find(t, "redis-server", "redis-server", "the Redis store")
	port, err := strconv.Atoi(servers.FreePort(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &redisServer{t: t, bin: bin, dir: t.TempDir(), port: port, args: args}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *redisServer) addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }

func (s *redisServer) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, append([]string{
		"--port", fmt.Sprint(s.port), "--bind", "127.0.0.1",
		"--dir", s.dir, "--save", "", "--appendonly", "no",
		"--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.addr()})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			s.t.Fatalf("redis-server did not answer within 10 s; its log:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server and waits for it to exit.
func (s *redisServer) stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGCONT) // if the test stopped it
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// client returns a Redis client of the server, closed at the test's end,
// failing at once when the server is down (one dial, no retries).
func (s *redisServer) client() *redis.Client {
	rdb := redis.NewClient(&redis.Options{
		Addr:        s.addr(),
		DialTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second,
		MaxRetries: -1, DialerRetries: 1, DialerRetryTimeout: 10 * time.Millisecond,
	})
	s.t.Cleanup(func() { rdb.Close() })
	return rdb
}
