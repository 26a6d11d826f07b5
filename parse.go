package robotstxt

import "github.com/seed50c7eacc/robotstxt/internal/swar"

// DefaultMaxSize is how many leading bytes of a robots.txt file Parse reads:
// 500 KiB, the limit Googlebot applies. The rest of a larger file is ignored.
const DefaultMaxSize = 512000

// Options control how a file is parsed. The zero value reads the file as
// Googlebot does.
type Options struct {
	// MaxSize is how many leading bytes of the file are parsed. Zero means
	// DefaultMaxSize; a negative value means the whole file, up to
	// MaxParseSize.
	MaxSize int
}

// MaxParseSize bounds every read, whatever Options.MaxSize says: the
// compiled form addresses its strings and records with 32-bit offsets, and
// a larger file would overflow them. It is 1 GiB, 2,000 times what
// Googlebot reads.
const MaxParseSize = 1 << 30

// Limit returns how many leading bytes of a file ParseWith reads with
// options o: MaxSize, DefaultMaxSize for zero, and at most MaxParseSize.
// Tools that read a file before parsing it (a linter, a command) read as
// much.
func (o Options) Limit() int {
	switch {
	case o.MaxSize == 0:
		return DefaultMaxSize
	case o.MaxSize < 0 || o.MaxSize > MaxParseSize:
		return MaxParseSize
	}
	return o.MaxSize
}

// Parse parses a robots.txt file, reading its first DefaultMaxSize bytes.
// Any byte sequence is valid input: what cannot be read as a directive is
// ignored. Parse does not retain data: it copies what it reads, and
// compiles the copy when it is first needed (see the package
// documentation).
func Parse(data []byte) *Robots {
	return ParseWith(data, Options{})
}

// ParseWith parses a robots.txt file with the given options.
func ParseWith(data []byte, opts Options) *Robots {
	// A view of data, read only until LoadCopy has copied it.
	return parseText(swar.String(data), opts, false)
}

// ParseString parses a robots.txt file held in a string, reading its first
// DefaultMaxSize bytes, as Parse does. A string cannot change, so
// ParseString keeps s itself rather than a copy: a crawler that holds
// bodies as strings (from a cache, a store, a strings.Builder) saves the
// copy Parse makes, about a quarter of the time of parsing a file and
// answering its first question. A file whose last rule starts in its last
// few bytes is copied at the first question that needs that rule, as
// Parse would have copied it. s is kept with the memory it lies in: a
// string built with room to spare (a strings.Builder grown past its
// length) keeps that room, where Parse's copy is the file's size. A file
// longer than the limit is copied up to it, so that the rest of s is not
// held.
func ParseString(s string) *Robots {
	return ParseStringWith(s, Options{})
}

// ParseStringWith parses a robots.txt file held in a string with the given
// options, as ParseString does.
func ParseStringWith(s string, opts Options) *Robots {
	return parseText(s, opts, true)
}

// ParseOwned parses a robots.txt file as Parse does, taking data over
// rather than copying it, as bytes.NewBuffer takes its buffer: the caller
// must not write data's bytes after the call. A body just read (with
// io.ReadAll, or into a buffer of its announced length) is such a slice,
// and saves the copy Parse makes, about a quarter of the time of parsing
// a file and answering its first question. Since the whole array data
// lies in is kept, a slice with more than an eighth of its length to
// spare (a buffer grown by doubling, or a slice of a larger one) is
// copied all the same, as Parse copies it; so is a file longer than the
// limit, so that the rest is not held.
func ParseOwned(data []byte) *Robots {
	return ParseOwnedWith(data, Options{})
}

// ParseOwnedWith parses a robots.txt file with the given options, taking
// data over as ParseOwned does.
func ParseOwnedWith(data []byte, opts Options) *Robots {
	// Spare room up to an eighth costs what a copy would: the allocator
	// rounds a copy up to its size class, by up to an eighth.
	keep := cap(data)-len(data) <= len(data)/maxSpareShare
	return parseText(swar.String(data), opts, keep)
}

// maxSpareShare bounds the room a slice ParseOwned takes over may have
// to spare for it to be kept: an eighth of its length.
const maxSpareShare = 8

// parseText returns the Robots of text cut at opts' limit: text itself
// when keep is set and nothing was cut, else a copy (see ParseString).
func parseText(text string, opts Options, keep bool) *Robots {
	r := &Robots{}
	if limit := opts.Limit(); len(text) > limit {
		text, r.truncated, keep = text[:limit], true, false
	}
	if keep {
		r.file.LoadString(text)
	} else {
		r.file.LoadCopy(text)
	}
	return r
}
