module github.com/seed50c7eacc/robotstxt/bench

go 1.22

require github.com/seed50c7eacc/robotstxt v0.0.0

require github.com/temoto/robotstxt v1.1.2

replace github.com/seed50c7eacc/robotstxt => ../
