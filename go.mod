module github.com/seed50c7eacc/robotstxt

go 1.26.8
