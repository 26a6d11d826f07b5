// Package guard is the site's side of robots.txt: a net/http middleware
// that answers 403 Forbidden to a crawler asking for what its own group of
// the site's robots.txt disallows, and passes every other request on.
//
// A crawler is read from the request's User-Agent header as it names
// itself: the product tokens of the header (GPTBot in "Mozilla/5.0
// AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2;
// +https://openai.com/gptbot)"), compared with the groups the file names
// and with the crawlers the package knows. Its group is chosen exactly as
// robotstxt.Robots.Agent chooses it, Google's way (RFC 9309 section
// 2.2.1): the group that names the token, else the "*" groups. A request
// that names no crawler, as a browser's does, always passes: the "*"
// group is for crawlers, not people. /robots.txt itself always passes.
//
// A request that claims a crawler whose operator publishes how to verify
// it (IP ranges, or reverse DNS confirmed forward, as Google documents for
// Googlebot) can be checked with a Verifier; the site chooses what an
// impostor gets (see ImpostorPolicy).
//
// The guard keeps no goroutine and is safe for concurrent use; the
// robots.txt it enforces may change while it runs (see New and NewFunc).
package guard
