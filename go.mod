module github.com/seed50c7eacc/robotstxt

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.42.0
	golang.org/x/sys v0.43.0
	golang.org/x/time v0.12.0
)

require golang.org/x/text v0.27.0 // indirect
