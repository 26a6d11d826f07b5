package engine

import (
	"math"

	"github.com/seed50c7eacc/robotstxt/internal/parse"
)

// A file whose groups that apply to an agent are too large for a scoped
// set (tooLarge: tens of thousands of rules, as in the hostile files of
// reference.HostileFamilies) is compiled whole, which takes a few
// milliseconds for 500 KiB. No question waits for all of it: the
// questions stream (stream.go, where the path's bytes and pairs rule most
// wildcard rules out), and from the second question on the compile is
// done in parts, as the index of a large rule set is built
// (indexbuild.go): each question after the first does one part before it
// streams (reading buildPartWork bytes of lines, or, once they are all
// read, finishing), whatever GOMAXPROCS is, and no goroutine of the
// engine's does any, so that no work outlives a call. The compiled form
// answers from the question that completes it on. A file asked once is
// never compiled.

// A partialBuild is a compile in parts under way: the builder and where
// it is in the file.
type partialBuild struct {
	b    *builder
	gr   parse.Grouper
	read bool // every line read: finish is left
}

// buildStep does the next part of compiling f, reading at most about work
// bytes of lines, or finishing once every line is read (in a part of its
// own unless work is math.MaxInt, the whole compile), and reports whether
// f is compiled. f.mu must be held.
func (f *File) buildStep(work int) (built bool) {
	if f.isBuilt() {
		return true
	}
	body, ok := f.body()
	if !ok {
		f.compiledForm = &emptyForm
		f.setBuilt()
		return true
	}
	if f.compiledForm == nil {
		f.compiledForm = new(compiledForm)
	}
	p := f.parts
	if p == nil {
		p = &partialBuild{b: builders.Get().(*builder)}
		p.gr = p.b.startReading(body, f.isTooLarge())
		f.parts = p
	}
	if !p.read {
		done := p.b.readLines(&p.gr, work)
		if work < math.MaxInt {
			// Each part compiles the rules it read (compileRead), which
			// finishing would do for all of them at once.
			p.b.compileRead()
		}
		if !done {
			return false
		}
		p.read = true
		if work < math.MaxInt {
			// Finishing is a part of its own (making a compiled rule of
			// each of tens of thousands of hostile rules, sorting them:
			// 5 M instructions), which the question that completes it
			// follows with a scan of the rules; the last lines read and a
			// stream would pass that.
			return false
		}
	}
	p.b.finish(f)
	p.b.release()
	f.parts = nil
	f.buildUsage()
	f.setBuilt()
	return true
}

// setBuilt publishes the compiled form and drops what questions read
// before it. A question streaming over the copy, or asking a scoped set,
// keeps its own reference.
func (f *File) setBuilt() {
	f.state.Or(builtBit)
	f.pending.Store(nil)
	f.scoped.Store(nil)
}

// compiling reports whether a compile in parts is under way. f.mu must be
// held, or no question be under way.
func (f *File) compiling() bool { return f.compiledForm != nil && f.parts != nil }
