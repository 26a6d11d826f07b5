package robotstxt

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// hostProfile converts host names to their ASCII (punycode) form, as a
// lookup would: Unicode is mapped (case folded, normalized) and validated
// per IDNA2008. Underscores, which real host names sometimes hold, are
// allowed; the other ASCII bytes a host may hold are checked by validHost.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(true),
)

// defaultPorts are the ports that mean the same as no port (RFC 3986
// section 6.2.3; RFC 9309 section 2.3 ties a file to its scheme, host and
// port).
var defaultPorts = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// An origin is the scheme, host and port that a robots.txt file governs.
type origin struct {
	scheme, host, port string // lower case; host in ASCII; port "" for the default
}

func (o origin) String() string {
	s := o.scheme + "://" + o.host
	if o.port != "" {
		s += ":" + o.port
	}
	return s
}

// parseOrigin returns the normalized origin of an absolute URL. Its
// errors are those URLError wraps: a *url.Error, or one of the Err values.
func parseOrigin(rawURL string) (origin, *url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return origin{}, nil, err
	}
	scheme := strings.ToLower(u.Scheme)
	if _, ok := defaultPorts[scheme]; !ok {
		if scheme == "" {
			return origin{}, nil, ErrNotAbsolute
		}
		return origin{}, nil, fmt.Errorf("%w %q: only http, https and ftp URLs have robots.txt files", ErrUnsupportedScheme, u.Scheme)
	}
	host, err := normalizeHost(u.Hostname())
	if err != nil {
		return origin{}, nil, err
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return origin{}, nil, fmt.Errorf("%w %q", ErrInvalidPort, port)
		}
		port = strconv.Itoa(n) // "080" is 80
	}
	if port == defaultPorts[scheme] {
		port = ""
	}
	return origin{scheme: scheme, host: host, port: port}, u, nil
}

// normalizeHost returns host in lower-case ASCII: IP addresses in their
// canonical form (IPv6 in brackets), names in punycode.
func normalizeHost(host string) (string, error) {
	if host == "" {
		return "", ErrNoHost
	}
	if !utf8.ValidString(host) {
		// The IDNA mapping would turn the bad bytes into U+FFFD and
		// invent a punycode name for them.
		return "", fmt.Errorf("%w %q: not UTF-8", ErrInvalidHost, host)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Is6() {
			// A zone's "%" is written "%25" in a URL (RFC 6874).
			return "[" + strings.Replace(ip.String(), "%", "%25", 1) + "]", nil
		}
		return ip.String(), nil
	}
	name, err := hostProfile.ToASCII(strings.TrimSuffix(host, "."))
	if err != nil {
		return "", fmt.Errorf("%w %q: %w", ErrInvalidHost, host, err)
	}
	if !validHost(name) {
		return "", fmt.Errorf("%w %q", ErrInvalidHost, host)
	}
	return name, nil
}

// validHost reports whether an ASCII host name holds only letters, digits,
// '-', '_' and dots between non-empty labels.
func validHost(name string) bool {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// RobotsURL returns the URL of the robots.txt file that governs pageURL:
// the same scheme, host and port, with the path /robots.txt (RFC 9309
// section 2.3). The
// scheme and host are lower-cased, an internationalized host name is
// converted to punycode, a default port (80 for http, 443 for https, 21 for
// ftp) is dropped and any other kept; user information, path, query and
// fragment are dropped. It is an error if pageURL is not an absolute http,
// https or ftp URL with a valid host; the error is a *URLError, which
// errors.Is matches against ErrNotAbsolute, ErrUnsupportedScheme,
// ErrNoHost, ErrInvalidHost and ErrInvalidPort, and errors.As against the
// *url.Error of a URL that does not parse.
func RobotsURL(pageURL string) (string, error) {
	o, _, err := parseOrigin(pageURL)
	if err != nil {
		return "", &URLError{Op: "RobotsURL", URL: pageURL, Err: err}
	}
	return o.String() + "/robots.txt", nil
}

// Governs reports whether the robots.txt file at robotsURL applies to
// pageURL: robotsURL's path must be exactly /robots.txt, and the two URLs
// must have the same scheme, host and port once normalized as RobotsURL
// normalizes them. It is false when either URL is invalid.
func Governs(robotsURL, pageURL string) bool {
	ro, u, err := parseOrigin(robotsURL)
	if err != nil || u.EscapedPath() != "/robots.txt" {
		return false
	}
	po, _, err := parseOrigin(pageURL)
	return err == nil && ro == po
}
