package sfv

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// String serializes d as RFC 9651 section 4.1.2 does: members separated by
// ", ", a member whose value is Boolean true written as its bare key.
func (d Dictionary) String() string {
	var b strings.Builder
	for i, m := range d {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.Key)
		v := m.Value
		switch {
		case v.IsInnerList:
			b.WriteByte('=')
			writeInnerList(&b, v.List)
		case v.Item.Kind == Boolean && v.Item.Bool:
		default:
			b.WriteByte('=')
			writeBareItem(&b, v.Item)
		}
		writeParams(&b, v.Params)
	}
	return b.String()
}

func writeInnerList(b *strings.Builder, list []ListItem) {
	b.WriteByte('(')
	for i, it := range list {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeBareItem(b, it.Item)
		writeParams(b, it.Params)
	}
	b.WriteByte(')')
}

func writeParams(b *strings.Builder, params []Param) {
	for _, p := range params {
		b.WriteByte(';')
		b.WriteString(p.Key)
		if p.Value.Kind == Boolean && p.Value.Bool {
			continue
		}
		b.WriteByte('=')
		writeBareItem(b, p.Value)
	}
}

func writeBareItem(b *strings.Builder, it Item) {
	switch it.Kind {
	case Integer:
		b.WriteString(strconv.FormatInt(it.Int, 10))
	case Date:
		b.WriteByte('@')
		b.WriteString(strconv.FormatInt(it.Int, 10))
	case Decimal:
		v := it.Int
		if v < 0 {
			b.WriteByte('-')
			v = -v
		}
		b.WriteString(strconv.FormatInt(v/1000, 10))
		b.WriteByte('.')
		frac := strconv.FormatInt(1000+v%1000, 10)[1:] // three digits
		frac = strings.TrimRight(frac, "0")
		if frac == "" {
			frac = "0"
		}
		b.WriteString(frac)
	case String:
		b.WriteByte('"')
		for i := 0; i < len(it.Str); i++ {
			if c := it.Str[i]; c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(it.Str[i])
		}
		b.WriteByte('"')
	case Token:
		b.WriteString(it.Str)
	case ByteSequence:
		b.WriteByte(':')
		b.WriteString(base64.StdEncoding.EncodeToString(it.Bytes))
		b.WriteByte(':')
	case Boolean:
		if it.Bool {
			b.WriteString("?1")
		} else {
			b.WriteString("?0")
		}
	case DisplayString:
		b.WriteString(`%"`)
		const hex = "0123456789abcdef"
		for i := 0; i < len(it.Str); i++ {
			c := it.Str[i]
			if c == '%' || c == '"' || c < 0x20 || c > 0x7e {
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
				continue
			}
			b.WriteByte(c)
		}
		b.WriteByte('"')
	}
}
