module github.com/seed50c7eacc/robotstxt

go 1.22

require github.com/google/go-cmp v0.7.0
