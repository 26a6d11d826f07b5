package redisstore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/internal/testsupport/fakeclock"
)

// Client.Purge deletes the site's entry from Redis, so that the next
// question, in any process, fetches the file again.
func TestPurge(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, fleetRules)
	}))
	defer site.Close()
	clock := fakeclock.New()
	newClient := func() *fetch.Client { return &fetch.Client{Cache: New(srv.client(), "p:"), Now: clock.Now} }
	a, b := newClient(), newClient()
	key := "p:" + site.URL + "/robots.txt"
	if _, err := a.Allowed(ctx, "bot", site.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	a.Flush(ctx)
	if n := srv.client().Exists(ctx, key).Val(); n != 1 {
		t.Fatalf("the entry is not in Redis (%d)", n)
	}
	if err := a.Purge(ctx, site.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	if n := srv.client().Exists(ctx, key).Val(); n != 0 {
		t.Errorf("the entry is still in Redis after Purge")
	}
	if _, err := b.Allowed(ctx, "bot", site.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 {
		t.Errorf("%d fetches, want 2: the purged copy fetched again", hits.Load())
	}
	srv.stop()
	var se *fetch.StoreError
	if err := a.Purge(ctx, site.URL+"/x"); err == nil || !errors.As(err, &se) || se.Op != "delete" {
		t.Errorf("Purge with Redis down: %v; want a *fetch.StoreError of op delete", err)
	}
}
