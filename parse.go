package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/parse"

// The tokenizer and the grouper live in internal/parse, shared with the
// lint package; these are the primitives the matcher's own files use.

func lowerASCII(c byte) byte { return parse.LowerASCII(c) }
