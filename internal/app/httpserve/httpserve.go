// Package httpserve runs the command-line tools' HTTP servers (the guard's
// proxy, the tester page's server) until their context ends.
package httpserve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long Until lets requests in flight finish once its
// context has ended.
const ShutdownGrace = 5 * time.Second

// Until serves h on l until ctx ends, then shuts the server down
// gracefully: it stops accepting, lets requests in flight finish for up to
// ShutdownGrace, and returns nil. It returns the server's error if serving
// fails first, and Shutdown's if requests outlast the grace.
func Until(ctx context.Context, l net.Listener, h http.Handler) error {
	// A slow client cannot hold a connection open by sending its header a
	// byte at a time.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
