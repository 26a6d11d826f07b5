package httpserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestUntilServesThenStopsWithItsContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error, 1)
	go func() {
		returned <- Until(ctx, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "hello")
		}))
	}()
	resp, err := http.Get("http://" + l.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" {
		t.Errorf("body %q, want hello", body)
	}
	cancel()
	select {
	case err := <-returned:
		if err != nil {
			t.Errorf("Until returned %v after its context ended, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Until did not return 10 s after its context ended")
	}
	if _, err := http.Get("http://" + l.Addr().String() + "/"); err == nil {
		t.Error("the server still answers after Until returned")
	}
}

func TestUntilReturnsTheServersError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // Serve fails at once
	if err := Until(context.Background(), l, http.NotFoundHandler()); err == nil {
		t.Error("Until on a closed listener returned nil, want Serve's error")
	}
}
