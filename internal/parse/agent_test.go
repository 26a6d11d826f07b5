package parse

import "testing"

// IsTokenByte's table accepts what RFC 9309 section 2.2.1 allows in a
// product token ("a-zA-Z_-"), byte for byte, and nothing else: its slow
// twin is the comparisons themselves.
func TestIsTokenByteTable(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
		if got := IsTokenByte(byte(c)); got != want {
			t.Errorf("IsTokenByte(%#x) = %v; want %v", c, got, want)
		}
	}
}

// ProductToken keeps the leading token bytes of a user-agent value, as
// Google's parser does (RFC 9309 section 2.2.1; Google's robots.txt
// documentation, "user-agent").
func TestProductToken(t *testing.T) {
	for _, tt := range []struct{ value, want string }{
		{"Googlebot/2.1", "Googlebot"},
		{"AB42bot", "AB"},
		{"*foo", ""},
		{"Mediapartners-Google", "Mediapartners-Google"},
		{"foo_bar baz", "foo_bar"},
		{"Bot\xc3\xa9", "Bot"},
		{"z{", "z"},
		{"@A", ""},
		{"", ""},
	} {
		if got := ProductToken(tt.value); got != tt.want {
			t.Errorf("ProductToken(%q) = %q; want %q", tt.value, got, tt.want)
		}
	}
}
