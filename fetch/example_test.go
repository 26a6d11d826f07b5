package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed50c7eacc/robotstxt/fetch"
)

// OnEvent reports each fetch, for counting as Scrapy's robotstxt/* stats
// do; Logger reports the same through log/slog.
func ExampleClient_onEvent() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer site.Close()

	client := &fetch.Client{OnEvent: func(ev fetch.Event) {
		fmt.Println("fetched:", ev.Fetched, "status:", ev.Status, "outcome:", ev.Outcome, "error:", ev.Err)
	}}
	ok, err := client.Allowed(context.Background(), "ExampleBot", site.URL+"/page")
	fmt.Println("allowed:", ok, err)
	// Output:
	// fetched: true status: 503 outcome: disallow all error: HTTP status 503
	// allowed: false <nil>
}

// An ftp:// page gets a typed error: the Client fetches over HTTP only.
func ExampleErrUnsupportedScheme() {
	client := &fetch.Client{}
	_, err := client.Allowed(context.Background(), "ExampleBot", "ftp://ftp.example.com/pub/file.txt")
	fmt.Println(errors.Is(err, fetch.ErrUnsupportedScheme))
	// Output: true
}

// A Cache over a shared store keeps entries in their wire form; here a map
// stands for the store.
func ExampleEntry_MarshalBinary() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	store := &mapStore{m: map[string][]byte{}}
	crawler1 := &fetch.Client{Cache: store}
	crawler2 := &fetch.Client{Cache: store}
	crawler1.Allowed(context.Background(), "ExampleBot", site.URL+"/")
	crawler1.Flush(context.Background()) // the copy is stored in the background
	ok, err := crawler2.Allowed(context.Background(), "ExampleBot", site.URL+"/private/x")
	fmt.Println(ok, err, len(store.m))
	// Output: false <nil> 1
}

type mapStore struct{ m map[string][]byte } // not safe for concurrent use: an example only

func (s *mapStore) Get(_ context.Context, url string) (*fetch.Entry, error) {
	data, ok := s.m[url]
	if !ok {
		return nil, nil
	}
	e := new(fetch.Entry)
	return e, e.UnmarshalBinary(data)
}

func (s *mapStore) Put(_ context.Context, url string, e *fetch.Entry) error {
	data, err := e.MarshalBinary()
	s.m[url] = data
	return err
}

// A request refused because the site's robots.txt is unreachable says
// why: the status and Retry-After of the failed fetch, or the network
// error, through errors.As.
func ExampleUnreachableError() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer site.Close()

	crawler := &http.Client{Transport: fetch.NewTransport(nil, "ExampleBot", &fetch.Client{})}
	_, err := crawler.Get(site.URL + "/page")
	var disallowed *fetch.DisallowedError
	var unreachable *fetch.UnreachableError
	if errors.As(err, &disallowed) && errors.As(err, &unreachable) {
		fmt.Println("outcome:", disallowed.Outcome)
		fmt.Println("status:", unreachable.Status, "retry after:", unreachable.RetryAfter)
	}
	// Output:
	// outcome: disallow all
	// status: 503 retry after: 2m0s
}
