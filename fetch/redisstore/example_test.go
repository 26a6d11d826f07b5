package redisstore_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"
	"github.com/seed50c7eacc/robotstxt/fetch"
	"github.com/seed50c7eacc/robotstxt/fetch/redisstore"
)

// Every crawler of a fleet uses the same Redis: each robots.txt file is
// fetched by one of them per lifetime, and parsed once per crawler.
func Example() {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer rdb.Close()
	client := &fetch.Client{
		UserAgent: "ExampleBot/1.0 (+https://example.com/bot)",
		Cache:     redisstore.New(rdb, "robots:"),
		Logger:    slog.Default(), // fetches, store errors
	}
	ok, err := client.Allowed(context.Background(), "ExampleBot", "https://example.com/page")
	fmt.Println(ok, err)
}
