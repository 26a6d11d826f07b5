package sfv

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// ParseDictionary parses s as a Dictionary field value (RFC 9651 section
// 4.2, with section 4.2.2 for the members). Leading and trailing spaces are
// discarded; anything else left over, a trailing comma or an empty member
// fails the whole value, as the RFC requires.
func ParseDictionary(s string) (Dictionary, error) {
	members, err := ParseMembers(s)
	if err != nil {
		return nil, err
	}
	var d Dictionary
	for _, m := range members {
		d = setMember(d, m.Key, m.Value)
	}
	return d, nil
}

// ParseMembers parses s as ParseDictionary does but returns every member
// as written, repeated keys included, for callers that report them (RFC
// 9651 keeps only the last value of a repeated key, which can surprise the
// writer).
func ParseMembers(s string) ([]DictMember, error) {
	p := parser{s: s}
	p.skipSP()
	d, err := p.dictionary()
	if err != nil {
		return nil, err
	}
	p.skipSP()
	if !p.eof() {
		return nil, p.fail("end of value")
	}
	return d, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) eof() bool  { return p.i >= len(p.s) }
func (p *parser) peek() byte { return p.s[p.i] }
func (p *parser) fail(reason string) error {
	return &SyntaxError{Offset: p.i, Reason: reason}
}

func (p *parser) skipSP() {
	for !p.eof() && p.peek() == ' ' {
		p.i++
	}
}

// skipOWS discards optional white space: SP and HTAB (section 4.2.2 step
// 2.5 and 2.9).
func (p *parser) skipOWS() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.i++
	}
}

// dictionary is section 4.2.2.
func (p *parser) dictionary() ([]DictMember, error) {
	var d []DictMember
	for !p.eof() {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		var m Member
		if !p.eof() && p.peek() == '=' {
			p.i++
			if m, err = p.itemOrInnerList(); err != nil {
				return nil, err
			}
		} else {
			m.Item = Item{Kind: Boolean, Bool: true}
			if m.Params, err = p.params(); err != nil {
				return nil, err
			}
		}
		d = append(d, DictMember{Key: key, Value: m})
		p.skipOWS()
		if p.eof() {
			return d, nil
		}
		if p.peek() != ',' {
			return nil, p.fail("',' between members")
		}
		p.i++
		p.skipOWS()
		if p.eof() {
			return nil, p.fail("a member after ','")
		}
	}
	return d, nil
}

func setMember(d Dictionary, key string, m Member) Dictionary {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = m
			return d
		}
	}
	return append(d, DictMember{Key: key, Value: m})
}

// itemOrInnerList is section 4.2.1.1.
func (p *parser) itemOrInnerList() (Member, error) {
	if !p.eof() && p.peek() == '(' {
		list, params, err := p.innerList()
		return Member{IsInnerList: true, List: list, Params: params}, err
	}
	it, params, err := p.item()
	return Member{Item: it, Params: params}, err
}

// innerList is section 4.2.1.2.
func (p *parser) innerList() ([]ListItem, []Param, error) {
	p.i++ // '('
	list := []ListItem{}
	for !p.eof() {
		p.skipSP()
		if p.eof() {
			break
		}
		if p.peek() == ')' {
			p.i++
			params, err := p.params()
			return list, params, err
		}
		it, params, err := p.item()
		if err != nil {
			return nil, nil, err
		}
		list = append(list, ListItem{Item: it, Params: params})
		if p.eof() {
			break
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return nil, nil, p.fail("' ' or ')' in inner list")
		}
	}
	return nil, nil, p.fail("')' closing the inner list")
}

// item is section 4.2.3.
func (p *parser) item() (Item, []Param, error) {
	it, err := p.bareItem()
	if err != nil {
		return Item{}, nil, err
	}
	params, err := p.params()
	return it, params, err
}

// params is section 4.2.3.2.
func (p *parser) params() ([]Param, error) {
	var params []Param
	for !p.eof() && p.peek() == ';' {
		p.i++
		p.skipSP()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		v := Item{Kind: Boolean, Bool: true}
		if !p.eof() && p.peek() == '=' {
			p.i++
			if v, err = p.bareItem(); err != nil {
				return nil, err
			}
		}
		params = setParam(params, key, v)
	}
	return params, nil
}

func setParam(params []Param, key string, v Item) []Param {
	for i := range params {
		if params[i].Key == key {
			params[i].Value = v
			return params
		}
	}
	return append(params, Param{Key: key, Value: v})
}

// key is section 4.2.3.3: lcalpha or '*', then lcalpha, DIGIT, '_', '-',
// '.', '*'.
func (p *parser) key() (string, error) {
	if p.eof() || !(isLCAlpha(p.peek()) || p.peek() == '*') {
		return "", p.fail("a key (lower-case letter or '*')")
	}
	start := p.i
	for p.i++; !p.eof() && isKeyChar(p.peek()); p.i++ {
	}
	return p.s[start:p.i], nil
}

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool   { return '0' <= c && c <= '9' }
func isKeyChar(c byte) bool {
	return isLCAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*'
}

// isTChar is RFC 9110's tchar.
func isTChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// bareItem is section 4.2.3.1.
func (p *parser) bareItem() (Item, error) {
	if p.eof() {
		return Item{}, p.fail("an item")
	}
	switch c := p.peek(); {
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case c == '*' || isAlpha(c):
		return p.token(), nil
	case c == ':':
		return p.byteSequence()
	case c == '?':
		return p.boolean()
	case c == '@':
		p.i++
		it, err := p.number()
		if err != nil {
			return Item{}, err
		}
		if it.Kind != Integer {
			return Item{}, p.fail("an integer date")
		}
		return Item{Kind: Date, Int: it.Int}, nil
	case c == '%':
		return p.displayString()
	default:
		return Item{}, p.fail("an item")
	}
}

// number is section 4.2.4.
func (p *parser) number() (Item, error) {
	neg := false
	if !p.eof() && p.peek() == '-' {
		neg = true
		p.i++
	}
	if p.eof() || !isDigit(p.peek()) {
		return Item{}, p.fail("a digit")
	}
	var intPart, frac int64
	intDigits, fracDigits, decimal := 0, 0, false
	for ; !p.eof(); p.i++ {
		c := p.peek()
		if isDigit(c) {
			if decimal {
				frac = frac*10 + int64(c-'0')
				fracDigits++
			} else {
				intPart = intPart*10 + int64(c-'0')
				intDigits++
			}
		} else if c == '.' && !decimal {
			if intDigits > 12 {
				return Item{}, p.fail("at most 12 integer digits in a decimal")
			}
			decimal = true
		} else {
			break
		}
		if !decimal && intDigits > 15 {
			return Item{}, p.fail("at most 15 digits in an integer")
		}
		if decimal && intDigits+fracDigits > 15 {
			return Item{}, p.fail("at most 16 characters in a decimal")
		}
	}
	sign := int64(1)
	if neg {
		sign = -1
	}
	if !decimal {
		return Item{Kind: Integer, Int: sign * intPart}, nil
	}
	if fracDigits == 0 {
		return Item{}, p.fail("a digit after '.'")
	}
	if fracDigits > 3 {
		return Item{}, p.fail("at most 3 fractional digits")
	}
	for ; fracDigits < 3; fracDigits++ {
		frac *= 10
	}
	return Item{Kind: Decimal, Int: sign * (intPart*1000 + frac)}, nil
}

// str is section 4.2.5.
func (p *parser) str() (Item, error) {
	p.i++ // '"'
	var b strings.Builder
	for !p.eof() {
		c := p.peek()
		p.i++
		switch {
		case c == '\\':
			if p.eof() {
				return Item{}, p.fail("a character after '\\'")
			}
			if e := p.peek(); e == '"' || e == '\\' {
				b.WriteByte(e)
				p.i++
				continue
			}
			return Item{}, p.fail("'\"' or '\\' after '\\'")
		case c == '"':
			return Item{Kind: String, Str: b.String()}, nil
		case c < 0x20 || c > 0x7e:
			p.i--
			return Item{}, p.fail("a printable ASCII character in a string")
		default:
			b.WriteByte(c)
		}
	}
	return Item{}, p.fail("'\"' closing the string")
}

// token is section 4.2.6; the caller checked the first character.
func (p *parser) token() Item {
	start := p.i
	for p.i++; !p.eof() && (isTChar(p.peek()) || p.peek() == ':' || p.peek() == '/'); p.i++ {
	}
	return Item{Kind: Token, Str: p.s[start:p.i]}
}

// byteSequence is section 4.2.7.
func (p *parser) byteSequence() (Item, error) {
	p.i++ // ':'
	end := strings.IndexByte(p.s[p.i:], ':')
	if end < 0 {
		return Item{}, p.fail("':' closing the byte sequence")
	}
	enc := p.s[p.i : p.i+end]
	for j := 0; j < len(enc); j++ {
		c := enc[j]
		if !(isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=') {
			p.i += j
			return Item{}, p.fail("a base64 character")
		}
	}
	b, ok := decodeBase64(enc)
	if !ok {
		return Item{}, p.fail("valid base64")
	}
	p.i += end + 1
	if b == nil {
		b = []byte{}
	}
	return Item{Kind: ByteSequence, Bytes: b}, nil
}

// decodeBase64 decodes the base64 of a byte sequence, which holds only
// base64 characters and '='. RFC 9651 section 4.2.7 says parsers SHOULD
// NOT fail when the "=" padding is missing or when the pad bits are not
// zero (RFC 4648 sections 3.2 and 3.5), so neither fails here:
// ":aGVsbG8:" is "hello", ":iZ==:" is 0x89. Missing padding is
// synthesized, as section 4.2.7's algorithm says; padding that is present
// must stand at the end, and be no more than the length asks for.
func decodeBase64(enc string) ([]byte, bool) {
	data := strings.TrimRight(enc, "=")
	if pad, due := len(enc)-len(data), (4-len(data)%4)%4; pad > due {
		return nil, false
	}
	// RawStdEncoding takes no padding; without Strict it ignores the pad
	// bits. It fails on a length no base64 has (4n+1) and on a stray "=".
	b, err := base64.RawStdEncoding.DecodeString(data)
	return b, err == nil
}

// boolean is section 4.2.8.
func (p *parser) boolean() (Item, error) {
	p.i++ // '?'
	if !p.eof() && (p.peek() == '0' || p.peek() == '1') {
		v := p.peek() == '1'
		p.i++
		return Item{Kind: Boolean, Bool: v}, nil
	}
	return Item{}, p.fail("'0' or '1' after '?'")
}

// displayString is section 4.2.10.
func (p *parser) displayString() (Item, error) {
	p.i++ // '%'
	if p.eof() || p.peek() != '"' {
		return Item{}, p.fail("'\"' after '%'")
	}
	p.i++
	var b []byte
	for !p.eof() {
		c := p.peek()
		switch {
		case c < 0x20 || c > 0x7e:
			return Item{}, p.fail("a printable ASCII character in a display string")
		case c == '%':
			if p.i+2 >= len(p.s) || !isLowerHexDigit(p.s[p.i+1]) || !isLowerHexDigit(p.s[p.i+2]) {
				return Item{}, p.fail("two lower-case hex digits after '%'")
			}
			b = append(b, unhex(p.s[p.i+1])<<4|unhex(p.s[p.i+2]))
			p.i += 3
		case c == '"':
			p.i++
			if !utf8.Valid(b) {
				return Item{}, p.fail("UTF-8 in a display string")
			}
			return Item{Kind: DisplayString, Str: string(b)}, nil
		default:
			b = append(b, c)
			p.i++
		}
	}
	return Item{}, p.fail("'\"' closing the display string")
}

func isLowerHexDigit(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return c - 'a' + 10
}
