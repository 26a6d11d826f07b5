package guard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"
)

// A Verification is what a Verifier found about a request's claim to come
// from a crawler.
type Verification int

const (
	// Unverified: the claim was not checked, because no Verifier knows
	// how to check this crawler or the check failed; it is taken at its
	// word.
	Unverified Verification = iota
	// Genuine: the request comes from the crawler's operator.
	Genuine
	// Impostor: the request does not come from the crawler's operator.
	Impostor
)

// String returns "unverified", "genuine" or "impostor".
func (v Verification) String() string {
	switch v {
	case Genuine:
		return "genuine"
	case Impostor:
		return "impostor"
	}
	return "unverified"
}

// A Verifier tells whether a request from addr that names crawler (a
// product token, as the User-Agent writes it) comes from that crawler's
// operator. It answers Unverified, with a nil error, for a crawler it has
// no way to check, and an error when the check itself failed.
type Verifier interface {
	Verify(ctx context.Context, crawler string, addr netip.Addr) (Verification, error)
}

// Verifiers asks each Verifier in turn; the first that answers other than
// Unverified decides. An error of one is returned only when no later one
// decides.
type Verifiers []Verifier

// Verify implements Verifier.
func (vs Verifiers) Verify(ctx context.Context, crawler string, addr netip.Addr) (Verification, error) {
	var errs []error
	for _, v := range vs {
		got, err := v.Verify(ctx, crawler, addr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if got != Unverified {
			return got, nil
		}
	}
	return Unverified, errors.Join(errs...)
}

// IPRanges verifies crawlers by the IP ranges their operators publish. It
// is safe for concurrent use; Load replaces the ranges while requests are
// verified.
type IPRanges struct {
	mu      sync.RWMutex
	byToken map[string][]netip.Prefix // lower-cased token -> ranges
}

// A RangeList is a list of IP ranges published for some crawlers, in the
// JSON form Google, Bing, OpenAI, Perplexity and Apple publish:
// {"prefixes": [{"ipv4Prefix": "192.0.2.0/24"}, {"ipv6Prefix": "2001:db8::/32"}]}.
type RangeList struct {
	Crawlers []string // the product tokens the list is for
	// Source is where the list is read from: an http or https URL, or a
	// file's path.
	Source string
}

// PublishedRanges are the lists crawler operators publish, as their
// documentation gives them: Google ("Verifying Googlebot and other Google
// crawlers"), Microsoft (Bingbot), OpenAI ("Overview of OpenAI
// Crawlers"), Perplexity ("Perplexity Crawlers") and Apple ("About
// Applebot").
var PublishedRanges = []RangeList{
	{[]string{"Googlebot", "Googlebot-Image", "Googlebot-Video", "Googlebot-News", "Storebot-Google", "Google-InspectionTool", "GoogleOther"}, "https://developers.google.com/static/search/apis/ipranges/googlebot.json"},
	{[]string{"bingbot"}, "https://www.bing.com/toolbox/bingbot.json"},
	{[]string{"GPTBot"}, "https://openai.com/gptbot.json"},
	{[]string{"OAI-SearchBot"}, "https://openai.com/searchbot.json"},
	{[]string{"ChatGPT-User"}, "https://openai.com/chatgpt-user.json"},
	{[]string{"PerplexityBot"}, "https://www.perplexity.ai/perplexitybot.json"},
	{[]string{"Perplexity-User"}, "https://www.perplexity.ai/perplexity-user.json"},
	{[]string{"Applebot"}, "https://search.developer.apple.com/applebot.json"},
}

// maxRangeList bounds the bytes read of one list.
const maxRangeList = 4 << 20

// ParseRanges reads a list of IP ranges in the published JSON form (see
// RangeList).
func ParseRanges(data []byte) ([]netip.Prefix, error) {
	var doc struct {
		Prefixes []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("guard: IP ranges: %w", err)
	}
	out := make([]netip.Prefix, 0, len(doc.Prefixes))
	for _, p := range doc.Prefixes {
		s := p.IPv4
		if s == "" {
			s = p.IPv6
		}
		pfx, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("guard: IP ranges: %w", err)
		}
		out = append(out, pfx.Masked())
	}
	if len(out) == 0 {
		return nil, errors.New("guard: IP ranges: the list holds no prefix")
	}
	return out, nil
}

// Set makes prefixes the ranges of crawlers, replacing what they had.
func (r *IPRanges) Set(crawlers []string, prefixes []netip.Prefix) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byToken == nil {
		r.byToken = map[string][]netip.Prefix{}
	}
	for _, c := range crawlers {
		r.byToken[strings.ToLower(c)] = prefixes
	}
}

// Load reads each list from its source (through client for a URL; nil
// means http.DefaultClient) and sets its ranges. A list that cannot be
// read keeps the ranges it had, and its error is returned, joined with
// the others'. Call Load again to refresh the lists (their publishers
// update them).
func (r *IPRanges) Load(ctx context.Context, client *http.Client, lists []RangeList) error {
	var errs []error
	for _, l := range lists {
		data, err := readSource(ctx, client, l.Source)
		if err == nil {
			var prefixes []netip.Prefix
			if prefixes, err = ParseRanges(data); err == nil {
				r.Set(l.Crawlers, prefixes)
				continue
			}
		}
		errs = append(errs, fmt.Errorf("%s: %w", l.Source, err))
	}
	return errors.Join(errs...)
}

// readSource reads an http(s) URL or a file, at most maxRangeList bytes.
func readSource(ctx context.Context, client *http.Client, source string) ([]byte, error) {
	if !strings.HasPrefix(source, "http://") && !strings.HasPrefix(source, "https://") {
		f, err := os.Open(source)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(io.LimitReader(f, maxRangeList))
	}
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, source, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP status %s", resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, maxRangeList))
}

// Verify implements Verifier: Genuine when addr is in the crawler's
// ranges, Impostor when it is not, Unverified when no list is loaded for
// the crawler.
func (r *IPRanges) Verify(_ context.Context, crawler string, addr netip.Addr) (Verification, error) {
	r.mu.RLock()
	prefixes, ok := r.byToken[strings.ToLower(crawler)]
	r.mu.RUnlock()
	if !ok {
		return Unverified, nil
	}
	addr = addr.Unmap()
	for _, p := range prefixes {
		if p.Contains(addr) {
			return Genuine, nil
		}
	}
	return Impostor, nil
}

// A Resolver looks up names, as *net.Resolver does; tests give a fake.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// PublishedDomains are the domains whose hosts a crawler's address
// resolves to, by reverse DNS confirmed forward, as the operators
// document them: Google ("Verifying Googlebot and other Google
// crawlers"), Microsoft (Bingbot), Apple ("About Applebot"), Yandex and
// Baidu. Keys are lower-cased product tokens.
var PublishedDomains = map[string][]string{
	"googlebot":             {"googlebot.com", "google.com", "googleusercontent.com"},
	"googlebot-image":       {"googlebot.com", "google.com", "googleusercontent.com"},
	"googlebot-video":       {"googlebot.com", "google.com", "googleusercontent.com"},
	"googlebot-news":        {"googlebot.com", "google.com", "googleusercontent.com"},
	"storebot-google":       {"googlebot.com", "google.com", "googleusercontent.com"},
	"google-inspectiontool": {"googlebot.com", "google.com", "googleusercontent.com"},
	"googleother":           {"googlebot.com", "google.com", "googleusercontent.com"},
	"bingbot":               {"search.msn.com"},
	"applebot":              {"applebot.apple.com"},
	"yandexbot":             {"yandex.ru", "yandex.net", "yandex.com"},
	"baiduspider":           {"baidu.com", "baidu.jp"},
}

// ReverseDNS verifies crawlers as Google documents for Googlebot: the
// address's reverse DNS name must be in one of the crawler's domains, and
// that name must resolve forward to the address. Answers are kept for
// TTL, up to MaxEntries addresses. It is safe for concurrent use.
type ReverseDNS struct {
	// Resolver looks names up; nil means net.DefaultResolver.
	Resolver Resolver
	// Domains are the domains of each crawler (lower-cased product
	// token); nil means PublishedDomains.
	Domains map[string][]string
	// TTL is how long an answer is kept; zero means an hour.
	TTL time.Duration
	// MaxEntries bounds the answers kept; zero means 65,536.
	MaxEntries int
	// Now tells the time; nil means time.Now.
	Now func() time.Time

	mu    sync.Mutex
	cache map[dnsKey]dnsAnswer
}

type dnsKey struct {
	crawler string
	addr    netip.Addr
}

type dnsAnswer struct {
	v       Verification
	expires time.Time
}

// Verify implements Verifier.
func (d *ReverseDNS) Verify(ctx context.Context, crawler string, addr netip.Addr) (Verification, error) {
	domains := d.Domains
	if domains == nil {
		domains = PublishedDomains
	}
	crawler = strings.ToLower(crawler)
	suffixes, ok := domains[crawler]
	if !ok {
		return Unverified, nil
	}
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	key := dnsKey{crawler, addr.Unmap()}
	d.mu.Lock()
	if a, ok := d.cache[key]; ok && now().Before(a.expires) {
		d.mu.Unlock()
		return a.v, nil
	}
	d.mu.Unlock()

	v, err := d.lookup(ctx, key.addr, suffixes)
	if err != nil {
		return Unverified, err
	}
	ttl := d.TTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	maxEntries := d.MaxEntries
	if maxEntries <= 0 {
		maxEntries = 1 << 16
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cache == nil || len(d.cache) >= maxEntries {
		d.cache = map[dnsKey]dnsAnswer{} // bounded: start again rather than grow
	}
	d.cache[key] = dnsAnswer{v, now().Add(ttl)}
	return v, nil
}

// lookup does the reverse then forward lookups. An address with no
// reverse name is an impostor; a failure of the resolver is an error.
func (d *ReverseDNS) lookup(ctx context.Context, addr netip.Addr, suffixes []string) (Verification, error) {
	var res Resolver = net.DefaultResolver
	if d.Resolver != nil {
		res = d.Resolver
	}
	names, err := res.LookupAddr(ctx, addr.String())
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return Impostor, nil
		}
		return Unverified, fmt.Errorf("guard: reverse DNS of %s: %w", addr, err)
	}
	for _, name := range names {
		host := strings.ToLower(strings.TrimSuffix(name, "."))
		if !inDomains(host, suffixes) {
			continue
		}
		ips, err := res.LookupIPAddr(ctx, host)
		if err != nil {
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				continue
			}
			return Unverified, fmt.Errorf("guard: forward DNS of %s: %w", host, err)
		}
		for _, ip := range ips {
			if a, ok := netip.AddrFromSlice(ip.IP); ok && a.Unmap() == addr {
				return Genuine, nil
			}
		}
	}
	return Impostor, nil
}

// inDomains reports whether host is one of the domains or a host in one.
func inDomains(host string, domains []string) bool {
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}
