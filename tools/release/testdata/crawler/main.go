// The README's crawler, built by .ci/run's release rehearsal in a module
// of its own outside the repository, against the modules as a tag would
// publish them: a fetch.Client sharing robots.txt copies through Redis
// (fetch/redisstore), in front of an http.Client through fetch.Transport.
// It crawls a site it serves on loopback and checks what it was told.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"

	"github.com/redis/go-redis/v9"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/fetch/redisstore"
)

func main() {
	redisAddr := flag.String("redis", "localhost:6379", "Redis `ADDRESS`")
	flag.Parse()
	if err := crawl(*redisAddr); err != nil {
		fmt.Fprintln(os.Stderr, "crawler:", err)
		os.Exit(1)
	}
}

func crawl(redisAddr string) error {
	ctx := context.Background()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	site := "http://" + l.Addr().String()
	go http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		io.WriteString(w, "page "+r.URL.Path)
	}))

	// The README's lines.
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
	defer rdb.Close()
	client := &fetch.Client{Cache: redisstore.New(rdb, "robots:"), Logger: slog.Default()}
	httpClient := &http.Client{Transport: fetch.NewTransport(http.DefaultTransport, "MyBot", &fetch.Client{UserAgent: "MyBot/1.0", Cache: client.Cache})}

	resp, err := httpClient.Get(site + "/public")
	if err != nil {
		return fmt.Errorf("/public: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("GET /public: %d %q\n", resp.StatusCode, body)

	_, err = httpClient.Get(site + "/private/x")
	var disallowed *fetch.DisallowedError
	if !errors.As(err, &disallowed) {
		return fmt.Errorf("/private/x: %v, want a *fetch.DisallowedError", err)
	}
	fmt.Printf("GET /private/x: refused: %v\n", err)

	ok, err := client.Allowed(ctx, "MyBot", site+"/private/y")
	if err != nil || ok {
		return fmt.Errorf("client.Allowed(/private/y) = %v, %v; want false", ok, err)
	}
	if err := client.Flush(ctx); err != nil {
		return err
	}
	n, err := rdb.Exists(ctx, "robots:"+site+"/robots.txt").Result()
	if err != nil || n != 1 {
		return fmt.Errorf("the copy is not in Redis: %d, %v", n, err)
	}
	fmt.Println("robots.txt copy shared through Redis: ok")
	return nil
}
