module github.com/seed50c7eacc/robotstxt/tools/release

go 1.25.0

require golang.org/x/mod v0.35.0

require github.com/google/go-cmp v0.7.0
