package robotstxt

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// "Google's docs" below is Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt.

func TestRobotsURL(t *testing.T) {
	tests := []struct {
		page, want string
	}{
		{"http://example.com/", "http://example.com/robots.txt"},
		{"http://example.com/folder/file?q=1#frag", "http://example.com/robots.txt"},
		{"HTTP://User:Pass@EXAMPLE.COM/x", "http://example.com/robots.txt"},         // RFC 9309 section 2.3: user info dropped, case folded
		{"https://www.example.com/", "https://www.example.com/robots.txt"},          // Google's docs: a subdomain has its own file
		{"http://shop.www.example.com/a", "http://shop.www.example.com/robots.txt"}, // Google's docs: a subdomain has its own file
		{"http://www.müller.eu/", "http://www.xn--mller-kva.eu/robots.txt"},         // Google's docs: IDNs equal their punycode
		{"https://www.exämple.com/", "https://www.xn--exmple-cua.com/robots.txt"},   // Google's docs: IDNs equal their punycode
		{"http://WWW.MÜLLER.EU/", "http://www.xn--mller-kva.eu/robots.txt"},         // Google's docs: IDNs equal their punycode, case mapped
		{"http://www.xn--mller-kva.eu/", "http://www.xn--mller-kva.eu/robots.txt"},  // Google's docs: IDNs equal their punycode
		{"http://example.com:80/", "http://example.com/robots.txt"},                 // Google's docs: a default port is no port
		{"http://example.com:81/", "http://example.com:81/robots.txt"},              // Google's docs: a default port is no port
		{"https://example.com:443/", "https://example.com/robots.txt"},              // Google's docs: a default port is no port
		{"https://example.com:444/", "https://example.com:444/robots.txt"},          // Google's docs: a default port is no port
		{"http://example.com:8181/x", "http://example.com:8181/robots.txt"},         // Google's docs: a default port is no port
		{"https://example.com:80/", "https://example.com:80/robots.txt"},            // 80 is not https's default
		{"ftp://example.com:21/pub/f", "ftp://example.com/robots.txt"},              // Google's docs: ftp too
		{"http://212.96.82.21/page", "http://212.96.82.21/robots.txt"},              // Google's docs: an IP host governs only itself
		{"http://[2001:DB8::1]:8080/", "http://[2001:db8::1]:8080/robots.txt"},      // Google's docs: an IP host governs only itself
		{"http://under_score.example.com/", "http://under_score.example.com/robots.txt"},
		{"http://example.com./", "http://example.com/robots.txt"},
		{"http://example.com:080/", "http://example.com/robots.txt"},
		// RFC 6874: an IPv6 zone is written with "%25", and the URL given
		// back must parse again.
		{"http://[fe80::1%25eth0]:8080/x", "http://[fe80::1%25eth0]:8080/robots.txt"},
		{"http://[FE80::1%25en1]/", "http://[fe80::1%25en1]/robots.txt"},
	}
	for _, tt := range tests {
		got, err := RobotsURL(tt.page)
		if err == nil {
			if _, err := url.Parse(got); err != nil {
				t.Errorf("RobotsURL(%q) = %q, which does not parse: %v", tt.page, got, err)
			}
		}
		if err != nil || got != tt.want {
			t.Errorf("RobotsURL(%q) = %q, %v; want %q", tt.page, got, err, tt.want)
		}
	}
}

// Every failure is a *URLError naming the page, whose cause errors.Is
// tells apart; url.Parse and IDNA errors stay reachable with errors.As.
func TestRobotsURLErrors(t *testing.T) {
	tests := []struct {
		page, wantErr string
		is            error // nil: a *url.Error
	}{
		{"mailto:someone@example.com", `scheme "mailto"`, ErrUnsupportedScheme},
		{"file:///etc/passwd", `scheme "file"`, ErrUnsupportedScheme},
		{"/relative/path", "not an absolute URL", ErrNotAbsolute},
		{"example.com/x", "not an absolute URL", ErrNotAbsolute},
		{"http:///x", "no host", ErrNoHost},
		{"http://exa mple.com/", "invalid", nil},
		{"http://a..b/", "invalid host", ErrInvalidHost},
		{"http://-bad.com/", "invalid host", ErrInvalidHost},
		{"http://example.com:99999999999/", "invalid port", ErrInvalidPort},
		{"http://example.com:0/", "invalid port", ErrInvalidPort},
		{"http://%zz/", "invalid", nil},
		{"http://\xae/", "not UTF-8", ErrInvalidHost}, // found by FuzzRobotsURL: IDNA would invent xn--zn7c
	}
	for _, tt := range tests {
		got, err := RobotsURL(tt.page)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("RobotsURL(%q) = %q, %v; want an error containing %q", tt.page, got, err, tt.wantErr)
			continue
		}
		var ue *URLError
		if !errors.As(err, &ue) || ue.Op != "RobotsURL" || ue.URL != tt.page {
			t.Errorf("RobotsURL(%q): error %#v is not a *URLError for the page", tt.page, err)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("RobotsURL(%q): %v is not %v", tt.page, err, tt.is)
		}
		var pe *url.Error
		if tt.is == nil && !errors.As(err, &pe) {
			t.Errorf("RobotsURL(%q): %v does not wrap a *url.Error", tt.page, err)
		}
	}
	// An IDNA failure is wrapped, not flattened: its own error stays in the
	// chain beside ErrInvalidHost.
	_, err := RobotsURL("http://xn--a.com/")
	_, idnaErr := hostProfile.ToASCII("xn--a.com")
	found := false
	var walk func(error)
	walk = func(e error) {
		switch w := e.(type) {
		case interface{ Unwrap() error }:
			walk(w.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range w.Unwrap() {
				walk(e)
			}
		}
		if e != nil && e.Error() == idnaErr.Error() {
			found = true
		}
	}
	walk(err)
	if !errors.Is(err, ErrInvalidHost) || !found {
		t.Errorf("IDNA error %v not wrapped in %v", idnaErr, err)
	}
}

// Every row of the table of robots.txt URLs in Google's docs ("File location
// and range of validity") and RFC 9309 section 2.3, in its
// http and https forms.
func TestGoverns(t *testing.T) {
	tests := []struct {
		robots    string
		valid     []string
		notValid  []string
		notRobots bool   // the file is not a robots.txt file at all
		clause    string // the row of Google's table
	}{
		{robots: "http://example.com/robots.txt", clause: "file location",
			valid:    []string{"http://example.com/", "http://example.com/folder/file"},
			notValid: []string{"http://other.example.com/", "https://example.com/", "http://example.com:8181/"}},
		{robots: "https://example.com/robots.txt", clause: "file location",
			valid:    []string{"https://example.com/", "https://example.com/folder/file"},
			notValid: []string{"https://other.example.com/", "http://example.com/", "https://example.com:8181/"}},
		{robots: "http://www.example.com/robots.txt", clause: "subdomains",
			valid:    []string{"http://www.example.com/"},
			notValid: []string{"http://example.com/", "http://shop.www.example.com/", "http://www.shop.example.com/"}},
		{robots: "https://www.example.com/robots.txt", clause: "subdomains",
			valid:    []string{"https://www.example.com/"},
			notValid: []string{"https://example.com/", "https://shop.www.example.com/", "https://www.shop.example.com/"}},
		{robots: "http://example.com/folder/robots.txt", clause: "file location", notRobots: true,
			notValid: []string{"http://example.com/", "http://example.com/folder/", "http://example.com/folder/x"}},
		{robots: "http://www.müller.eu/robots.txt", clause: "IDNs",
			valid:    []string{"http://www.müller.eu/", "http://www.xn--mller-kva.eu/"},
			notValid: []string{"http://www.muller.eu/"}},
		// The Persian translation of Google's docs lists
		// https://xn--exmple-cua.com/ (without www.) as valid here; that
		// contradicts the rule that a subdomain has its own file, and the
		// punycode of www.exämple.com is www.xn--exmple-cua.com, which is
		// what holds.
		{robots: "https://www.exämple.com/robots.txt", clause: "IDNs",
			valid:    []string{"https://www.exämple.com/", "https://www.xn--exmple-cua.com/"},
			notValid: []string{"https://www.example.com/", "https://xn--exmple-cua.com/"}},
		{robots: "ftp://example.com/robots.txt", clause: "ftp",
			valid:    []string{"ftp://example.com/"},
			notValid: []string{"http://example.com/", "https://example.com/"}},
		{robots: "http://212.96.82.21/robots.txt", clause: "IP hosts",
			valid:    []string{"http://212.96.82.21/"},
			notValid: []string{"http://example.com/"}},
		{robots: "https://212.96.82.21/robots.txt", clause: "IP hosts",
			valid:    []string{"https://212.96.82.21/"},
			notValid: []string{"https://example.com/"}},
		{robots: "http://example.com:80/robots.txt", clause: "ports",
			valid:    []string{"http://example.com:80/", "http://example.com/"},
			notValid: []string{"http://example.com:81/"}},
		{robots: "https://example.com:443/robots.txt", clause: "ports",
			valid:    []string{"https://example.com:443/", "https://example.com/"},
			notValid: []string{"https://example.com:444/"}},
		{robots: "http://example.com:8181/robots.txt", clause: "ports",
			valid:    []string{"http://example.com:8181/"},
			notValid: []string{"http://example.com/"}},
		{robots: "https://example.com:8181/robots.txt", clause: "ports",
			valid:    []string{"https://example.com:8181/"},
			notValid: []string{"https://example.com/"}},
		{robots: "http://example.com/Robots.txt", clause: "case", notRobots: true,
			notValid: []string{"http://example.com/"}},
	}
	for _, tt := range tests {
		for _, page := range tt.valid {
			if !Governs(tt.robots, page) {
				t.Errorf("%s: %s does not govern %s", tt.clause, tt.robots, page)
			}
			if got, err := RobotsURL(page); err != nil || !Governs(got, page) {
				t.Errorf("%s: RobotsURL(%q) = %q, %v does not govern it", tt.clause, page, got, err)
			}
		}
		for _, page := range tt.notValid {
			if Governs(tt.robots, page) {
				t.Errorf("%s: %s governs %s", tt.clause, tt.robots, page)
			}
		}
		if !tt.notRobots {
			// The robots.txt URL is its own canonical form, up to the
			// default port and Unicode.
			if _, err := RobotsURL(tt.robots); err != nil {
				t.Errorf("RobotsURL(%q): %v", tt.robots, err)
			}
		}
	}
	if Governs("not a url", "http://example.com/") || Governs("http://example.com/robots.txt", "::") {
		t.Error("Governs accepted an invalid URL")
	}
}

// FuzzRobotsURL: any string either fails cleanly or yields a robots.txt URL
// that is a fixed point of RobotsURL and governs the page it came from.
func FuzzRobotsURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a?b#c", "HTTP://Example.COM:80/", "http://müller.eu/x",
		"ftp://[::1]:21/", "https://user:pw@host:8181/p", "mailto:a@b", "//x/y", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		robots, err := RobotsURL(page)
		if err != nil {
			if Governs(page, page) && strings.HasSuffix(page, "/robots.txt") {
				t.Fatalf("RobotsURL(%q) failed (%v) but Governs accepts it", page, err)
			}
			return
		}
		if !strings.HasSuffix(robots, "/robots.txt") {
			t.Fatalf("RobotsURL(%q) = %q, not a /robots.txt URL", page, robots)
		}
		again, err := RobotsURL(robots)
		if err != nil || again != robots {
			t.Fatalf("RobotsURL(%q) = %q, %v; want the fixed point %q", robots, again, err, robots)
		}
		if !Governs(robots, page) {
			t.Fatalf("Governs(%q, %q) = false for the URL RobotsURL returned", robots, page)
		}
	})
}
