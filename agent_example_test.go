package robotstxt_test

import (
	"fmt"

	"github.com/seed50c7eacc/robotstxt"
)

// A crawler that answers to several product tokens passes them most
// specific first: Google's image crawler obeys a googlebot-image group if
// the file has one, else the googlebot group, else "*".
func ExampleRobots_Agent_tokens() {
	robots := robotstxt.Parse([]byte(`User-agent: googlebot-news
Disallow: /archive/

User-agent: *
Disallow: /

User-agent: googlebot
Disallow: /search
Crawl-delay: 1
`))
	images := robots.Agent("Googlebot-Image", "Googlebot")
	fmt.Println(images.Name(), images.Allowed("https://example.com/photos/cat.jpg"), images.Allowed("https://example.com/search?q=cat"))
	apple := robots.Agent("Applebot", "Googlebot") // Applebot follows Googlebot's rules when not named
	fmt.Println(apple.Name(), apple.Allowed("https://example.com/photos/cat.jpg"))
	other := robots.Agent("ExampleBot")
	fmt.Println(other.Specific(), other.Allowed("https://example.com/photos/cat.jpg"))
	// Output:
	// Googlebot true false
	// Googlebot true
	// false false
}
