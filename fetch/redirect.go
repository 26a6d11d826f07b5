package fetch

import (
	"fmt"
	"net/http"

	"github.com/seed50c7eacc/robotstxt"
)

// A RedirectPolicy says which redirects of a robots.txt fetch the Client
// follows. A robots.txt URL is fetched without any rule checking it (it is
// the rules), so its redirects are requests a site chooses for the
// crawler: each policy weighs obeying the site's move against that.
type RedirectPolicy int

const (
	// FollowRedirects, the default, does as Google does (RFC 9309 section
	// 2.3.1.2: at least five hops): up to MaxRedirects hops, to any host;
	// a longer chain counts as "no robots.txt" (allow all). The
	// HTTPClient's CheckRedirect, if set, is applied to every hop as well,
	// so a guard there (against internal addresses) holds.
	//
	// The risk: a site's robots.txt may redirect to any URL on any host
	// (victim.example/delete?id=1), and the crawler sends that GET, up to
	// five hops a lifetime of the copy, unchecked by the target's
	// robots.txt.
	FollowRedirects RedirectPolicy = iota

	// SameOriginRedirects follows only hops that stay on the robots.txt
	// URL's own origin (scheme, host and port, as robotstxt.RobotsURL
	// normalizes them), up to MaxRedirects, as StormCrawler can; the
	// HTTPClient's CheckRedirect, if set, applies too. A hop elsewhere is
	// not sent and the fetch fails: the site's robots.txt is unreachable
	// (nothing may be crawled) until a fetch succeeds, or for 30 days.
	//
	// The risk: a site that moved its robots.txt to another origin, even
	// from http to https or to www, cannot be crawled (nor is it crawled
	// against its rules).
	SameOriginRedirects

	// CallerRedirects lets the HTTPClient's CheckRedirect alone decide, as
	// it does for the crawler's own requests (http.Client's default when
	// it is nil: 10 hops, any host).
	//
	// The risk: whatever that function lets through, the robots.txt fetch
	// sends, unchecked by any robots.txt; a chain it lets run beyond
	// MaxRedirects ends in a file Google would not have read.
	CallerRedirects
)

// String names the policy.
func (p RedirectPolicy) String() string {
	switch p {
	case FollowRedirects:
		return "follow"
	case SameOriginRedirects:
		return "same origin"
	case CallerRedirects:
		return "caller"
	}
	return fmt.Sprintf("RedirectPolicy(%d)", int(p))
}

// errOffOrigin refuses a robots.txt redirect to another origin.
type errOffOrigin struct{ from, to string }

func (e errOffOrigin) Error() string {
	return fmt.Sprintf("redirect of %s to %s refused: another origin (SameOriginRedirects)", e.from, e.to)
}

// checkRedirect returns the CheckRedirect of the Client's http.Client,
// given the caller's (nil when none).
func (p RedirectPolicy) checkRedirect(caller func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	if p == CallerRedirects {
		return caller // nil: http.Client's default
	}
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > MaxRedirects {
			return http.ErrUseLastResponse // the 3xx then counts as a 404
		}
		if p == SameOriginRedirects {
			from, err1 := robotstxt.RobotsURL(via[0].URL.String())
			to, err2 := robotstxt.RobotsURL(req.URL.String())
			if err1 != nil || err2 != nil || from != to {
				return errOffOrigin{via[0].URL.Redacted(), req.URL.Redacted()}
			}
		}
		if caller != nil {
			return caller(req, via)
		}
		return nil
	}
}
