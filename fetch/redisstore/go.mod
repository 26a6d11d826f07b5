module github.com/seed50c7eacc/robotstxt/fetch/redisstore

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/redis/go-redis/v9 v9.22.0
	github.com/seed50c7eacc/robotstxt v0.1.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/net v0.42.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/text v0.27.0 // indirect
	golang.org/x/time v0.12.0 // indirect
)
