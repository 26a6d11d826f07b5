module github.com/seed50c7eacc/robotstxt/bench

go 1.25.0

require github.com/seed50c7eacc/robotstxt v0.1.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/temoto/robotstxt v1.1.2
)

require (
	golang.org/x/net v0.42.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/text v0.27.0 // indirect
)
