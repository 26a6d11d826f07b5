// Package colly shows a colly crawler (github.com/gocolly/colly/v2) that
// obeys robots.txt through package fetch's Transport. It is a module of its
// own so that the library's users never download colly; its test runs a
// real crawl of a loopback site.
package colly
