package sfv

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func tok(s string) Item   { return Item{Kind: Token, Str: s} }
func num(n int64) Item    { return Item{Kind: Integer, Int: n} }
func boolean(v bool) Item { return Item{Kind: Boolean, Bool: v} }
func item(it Item) Member { return Member{Item: it} }
func list(its ...Item) Member {
	m := Member{IsInnerList: true, List: []ListItem{}}
	for _, it := range its {
		m.List = append(m.List, ListItem{Item: it})
	}
	return m
}

// TestParseDictionary checks the dictionary examples of RFC 9651 (section
// 3.2 and the items of section 3.3) and the aipref values.
func TestParseDictionary(t *testing.T) {
	tests := []struct {
		name, in string
		want     Dictionary
		wantText string // serialization, when it differs from in
	}{
		{"RFC 9651 3.2 strings and bytes", `en="Applepie", da=:w4ZibGV0w6ZydGU=:`, Dictionary{
			{"en", item(Item{Kind: String, Str: "Applepie"})},
			{"da", item(Item{Kind: ByteSequence, Bytes: []byte("\xc3\x86blet\xc3\xa6rte")})},
		}, ""},
		{"RFC 9651 3.2 booleans and parameters", `a=?0, b, c; foo=bar`, Dictionary{
			{"a", item(boolean(false))},
			{"b", item(boolean(true))},
			{"c", Member{Item: boolean(true), Params: []Param{{"foo", tok("bar")}}}},
		}, `a=?0, b, c;foo=bar`},
		{"RFC 9651 3.2 inner list", `rating=1.5, feelings=(joy sadness)`, Dictionary{
			{"rating", item(Item{Kind: Decimal, Int: 1500})},
			{"feelings", list(tok("joy"), tok("sadness"))},
		}, ""},
		{"RFC 9651 3.2 mixed", `a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid`, Dictionary{
			{"a", list(num(1), num(2))},
			{"b", item(num(3))},
			{"c", Member{Item: num(4), Params: []Param{{"aa", tok("bb")}}}},
			{"d", Member{IsInnerList: true, List: []ListItem{{Item: num(5)}, {Item: num(6)}}, Params: []Param{{"valid", boolean(true)}}}},
		}, ""},
		{"RFC 9651 3.3.7 date", `d=@1659578233`, Dictionary{{"d", item(Item{Kind: Date, Int: 1659578233})}}, ""},
		{"RFC 9651 3.3.8 display string", `s=%"This is intended for display to %c3%bcsers."`, Dictionary{
			{"s", item(Item{Kind: DisplayString, Str: "This is intended for display to \u00fcsers."})},
		}, ""},
		{"RFC 9651 4.2.2 last of a repeated key wins, first position kept", `a=1, b=2, a=3`, Dictionary{
			{"a", item(num(3))}, {"b", item(num(2))},
		}, `a=3, b=2`},
		{"empty value is an empty dictionary", ``, nil, ""},
		{"leading and trailing spaces", `  a=1  `, Dictionary{{"a", item(num(1))}}, `a=1`},
		{"tab around comma (OWS)", "a=1\t,\tb=2", Dictionary{{"a", item(num(1))}, {"b", item(num(2))}}, `a=1, b=2`},
		{"negative decimal", `x=-0.25`, Dictionary{{"x", item(Item{Kind: Decimal, Int: -250})}}, ""},
		{"escaped string", `x="a\"b\\c"`, Dictionary{{"x", item(Item{Kind: String, Str: `a"b\c`})}}, ""},
		{"token with colon and slash", `x=foo:bar/baz`, Dictionary{{"x", item(tok("foo:bar/baz"))}}, ""},
		{"empty inner list", `x=()`, Dictionary{{"x", list()}}, ""},
		{"aipref vocab-08 labels", `train-ai=n, ai-use=n, search=y`, Dictionary{{"train-ai", item(tok("n"))}, {"ai-use", item(tok("n"))}, {"search", item(tok("y"))}}, ""},
		{"Content Signals (contentsignals.org) without spaces", `search=yes,ai-train=no`, Dictionary{{"search", item(tok("yes"))}, {"ai-train", item(tok("no"))}}, `search=yes, ai-train=no`},
		{"key starting with star", `*foo=1`, Dictionary{{"*foo", item(num(1))}}, ""},
		{"15-digit integer", `x=123456789012345`, Dictionary{{"x", item(num(123456789012345))}}, ""},
		{"12.3-digit decimal", `x=123456789012.123`, Dictionary{{"x", item(Item{Kind: Decimal, Int: 123456789012123})}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDictionary(tt.in)
			if err != nil {
				t.Fatalf("ParseDictionary(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseDictionary(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			wantText := tt.wantText
			if wantText == "" {
				wantText = tt.in
			}
			if got.String() != wantText {
				t.Errorf("String() = %q, want %q", got.String(), wantText)
			}
		})
	}
}

// TestParseDictionaryErrors checks values RFC 9651 section 4.2 refuses.
func TestParseDictionaryErrors(t *testing.T) {
	for _, in := range []string{
		`a=1,`,               // trailing comma (4.2.2)
		`a=1, `,              // trailing comma and space
		`,a=1`,               // leading comma
		`A=1`,                // upper-case key (4.2.3.3)
		`a=1 b=2`,            // no comma
		`a=`,                 // missing item
		`a="x`,               // unterminated string
		`a="\x"`,             // bad escape
		"a=\"\x7f\"",         // non-printable in string
		`a=:YQ`,              // unterminated byte sequence
		`a=:Y!==:`,           // bad base64
		`a=?2`,               // bad boolean
		`a=1.`,               // decimal without fraction
		`a=1.2345`,           // four fractional digits
		`a=1234567890123456`, // 16-digit integer
		`a=1234567890123.1`,  // 13 integer digits in a decimal
		`a=(1 2`,             // unterminated inner list
		`a=(1,2)`,            // comma in inner list
		`a=@1.5`,             // decimal date
		`a=%"%C3%BC"`,        // upper-case hex in display string
		`a=%"%ff"`,           // invalid UTF-8 in display string
		`a=yes no`,           // SP then garbage
		`a;=1`,               // empty parameter key
		`/path a=1`,          // a Content-Usage path left in the value
		`a=1;b=x y`,          // garbage after parameter
		"a=1\n",              // newline is not white space here
	} {
		d, err := ParseDictionary(in)
		if err == nil {
			t.Errorf("ParseDictionary(%q) = %v, want an error", in, d)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseDictionary(%q) error %v does not wrap ErrSyntax", in, err)
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(in) {
			t.Errorf("ParseDictionary(%q) error %#v: offset out of range", in, err)
		}
	}
}

// FuzzParseDictionary checks that parsing never panics and that a parsed
// value serializes to a canonical form that parses back to the same
// dictionary and serializes to itself.
func FuzzParseDictionary(f *testing.F) {
	for _, s := range []string{`en="Applepie", da=:w4ZibGV0w6ZydGU=:`, `a=?0, b, c; foo=bar`,
		`rating=1.5, feelings=(joy sadness)`, `a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid`,
		`train-ai=n;x=1, search=y`, `search=yes,ai-train=no`, `s=%"%c3%bc"`, `d=@-5`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDictionary(s)
		members, merr := ParseMembers(s)
		if (err == nil) != (merr == nil) {
			t.Fatalf("ParseDictionary(%q) error %v, ParseMembers error %v", s, err, merr)
		}
		if err != nil {
			return
		}
		last := map[string]Member{}
		for _, m := range members {
			last[m.Key] = m.Value
		}
		if len(last) != len(d) {
			t.Fatalf("%q: %d distinct keys, dictionary has %d", s, len(last), len(d))
		}
		for _, m := range d {
			if diff := cmp.Diff(last[m.Key], m.Value); diff != "" {
				t.Fatalf("%q: key %q is not its last value:\n%s", s, m.Key, diff)
			}
		}
		text := d.String()
		again, err := ParseDictionary(text)
		if err != nil {
			t.Fatalf("ParseDictionary(%q) ok, but its serialization %q fails: %v", s, text, err)
		}
		if diff := cmp.Diff(d, again); diff != "" {
			t.Fatalf("round trip of %q via %q differs:\n%s", s, text, diff)
		}
		if again.String() != text {
			t.Fatalf("serialization not canonical: %q then %q", text, again.String())
		}
	})
}

// TestParseMembers checks that every member is returned as written, and
// that ParseDictionary's merge keeps the first position and the last value.
func TestParseMembers(t *testing.T) {
	got, err := ParseMembers(`train-ai=y, search=n, train-ai`)
	if err != nil {
		t.Fatal(err)
	}
	want := []DictMember{{"train-ai", item(tok("y"))}, {"search", item(tok("n"))}, {"train-ai", item(boolean(true))}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if _, err := ParseMembers(`a=1,`); err == nil {
		t.Error("ParseMembers(`a=1,`) succeeded")
	}
}

// TestByteSequencePadding checks RFC 9651 section 4.2.7: parsers SHOULD
// NOT fail when "=" padding is missing or the pad bits are not zero, and
// the serializer writes the canonical form; padding that is present must
// stand at the end and match the length.
func TestByteSequencePadding(t *testing.T) {
	tests := []struct {
		in        string
		want      []byte // nil: a parse error
		canonical string
	}{
		{"a=:aGVsbG8=:", []byte("hello"), "a=:aGVsbG8=:"},
		{"a=:aGVsbG8:", []byte("hello"), "a=:aGVsbG8=:"},   // no padding
		{"a=:aGVsbA:", []byte("hell"), "a=:aGVsbA==:"},     // two pad characters missing
		{"a=:aGVsbA=:", []byte("hell"), "a=:aGVsbA==:"},    // one of two
		{"a=:iZ==:", []byte{0x89}, "a=:iQ==:"},             // non-zero pad bits
		{"a=:iZ:", []byte{0x89}, "a=:iQ==:"},               // both
		{"a=:aGVsbG8h:", []byte("hello!"), "a=:aGVsbG8h:"}, // no padding needed
		{"a=::", []byte{}, "a=::"},
		{"a=:aGVsbG8==:", nil, ""},  // more padding than the length asks for
		{"a=:aGVsbG8h=:", nil, ""},  // padding where none is due
		{"a=:=aGVsbG8=:", nil, ""},  // padding at the beginning
		{"a=:a=GVsbG8=:", nil, ""},  // padding in the middle
		{"a=:aGVsbG8hY:", nil, ""},  // a length no base64 has (4n+1)
		{"a=:aGVsbG8===:", nil, ""}, // three pad characters
	}
	for _, tt := range tests {
		d, err := ParseDictionary(tt.in)
		if tt.want == nil {
			if err == nil {
				t.Errorf("ParseDictionary(%q) = %v, want an error", tt.in, d)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDictionary(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, d[0].Value.Item.Bytes); diff != "" {
			t.Errorf("ParseDictionary(%q) bytes (-want +got):\n%s", tt.in, diff)
		}
		if got := d.String(); got != tt.canonical {
			t.Errorf("ParseDictionary(%q).String() = %q, want %q", tt.in, got, tt.canonical)
		}
	}
}
