// Package sfv parses and serializes Dictionary structured field values as
// RFC 9651 (Structured Field Values for HTTP, September 2024) defines them:
// the subset the AI usage preference drafts need to read Content-Usage and
// Content-Signal values.
//
// Parsing follows the algorithms of RFC 9651 section 4.2 step by step; every
// bare item type of section 3.3 (Integer, Decimal, String, Token, Byte
// Sequence, Boolean, Date, Display String) and Inner Lists are accepted, so
// that a dictionary that is valid by the RFC is never refused. Serialization
// (section 4.1) exists for the round-trip property the tests check.
package sfv

import (
	"errors"
	"fmt"
)

// Kind is the type of a bare item (RFC 9651 section 3.3).
type Kind uint8

// The bare item types of RFC 9651 section 3.3.
const (
	Integer Kind = iota + 1
	Decimal
	String
	Token
	ByteSequence
	Boolean
	Date
	DisplayString
)

var kindNames = [...]string{"", "integer", "decimal", "string", "token", "byte sequence", "boolean", "date", "display string"}

// String returns the name RFC 9651 gives the kind, such as "byte sequence".
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Item is a bare item. Which field holds the value depends on Kind:
// Int for Integer and Date, Int for Decimal too (in thousandths, which is
// the precision RFC 9651 allows), Str for String, Token and DisplayString,
// Bytes for ByteSequence, Bool for Boolean.
type Item struct {
	Kind  Kind
	Int   int64
	Str   string
	Bytes []byte
	Bool  bool
}

// Param is one parameter (RFC 9651 section 3.1.2).
type Param struct {
	Key   string
	Value Item
}

// Member is the value of one dictionary member: an item with parameters,
// or, when IsInnerList is set, an inner list (List) with parameters.
type Member struct {
	Item        Item
	IsInnerList bool
	List        []ListItem
	Params      []Param
}

// ListItem is an item of an inner list, with its parameters.
type ListItem struct {
	Item   Item
	Params []Param
}

// DictMember is a key and its member value.
type DictMember struct {
	Key   string
	Value Member
}

// Dictionary is an ordered dictionary (RFC 9651 section 3.2). Keys are
// unique: a repeated key overwrites the earlier value in place (section
// 4.2.2), so the last value wins and the first position is kept.
type Dictionary []DictMember

// Get returns the member for key and whether it is present.
func (d Dictionary) Get(key string) (Member, bool) {
	for _, m := range d {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Member{}, false
}

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("sfv: invalid structured field")

// SyntaxError says where and why a value failed to parse.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Reason string // what was expected
}

// Error says at which byte offset the value failed and what was expected.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("sfv: invalid structured field at offset %d: %s", e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }
