package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/seed50c7eacc/robotstxt/internal/pattern"
	"github.com/seed50c7eacc/robotstxt/internal/swar"
)

// Which rules can never decide: a rule of the other kind that takes
// precedence matches every path the rule matches.

// shadowBudget bounds the pattern comparisons of one Lint call, so that a
// file built to be slow cannot make it so; past it, fewer shadowed rules
// are reported, never wrong ones.
const shadowBudget = 1 << 20

// A ruleSet is the rules of an agent set, while it is checked.
type ruleSet struct {
	rules []setRule
}

// shadowed returns the rules of s, the rules of set, that never decide,
// each with a rule that takes precedence wherever it matches. It builds
// its index in idx, whose arrays it reuses.
func shadowed(set *agentSet, s *ruleSet, idx *shadowIndex, budget *int) []keyedFinding {
	s.index(idx)
	buf := idx.text // coverText's reused buffer
	defer func() { idx.text = buf }()
	// A rule's entries (itself and its derived index.htm pattern) are
	// adjacent; it never decides if every entry is shadowed.
	var out []keyedFinding
	for i := 0; i < len(s.rules); {
		k := ruleKey{int(s.rules[i].group), int(s.rules[i].index)}
		var f finding
		all := true
		for ; i < len(s.rules) && int(s.rules[i].group) == k.group && int(s.rules[i].index) == k.index; i++ {
			var by int
			var same bool
			by, same, buf = s.coveredBy(i, idx, budget, buf)
			if by < 0 {
				all = false
				continue
			}
			if !f.found {
				f = finding{set: set, by: s.rules[by], same: same, found: true}
			}
		}
		if all && f.found {
			out = append(out, keyedFinding{k, f})
		}
	}
	return out
}

// A shadowIndex finds the candidate shadowers of a rule: sorted arrays of
// rule indices, and a hash index from each distinct literal prefix to its
// first position in byPrefix (a map of strings cost 48 bytes an entry,
// more than the rules themselves; a binary search, half as fast again).
type shadowIndex struct {
	byPrefix []int32   // matchable rules by literal prefix, then index
	allows   []int32   // matchable allow rules (not derived) by pattern, then index
	lengths  []int32   // the distinct literal prefix lengths, ascending
	starts   hashIndex // of the positions in byPrefix where a prefix's rules start
	text     []byte    // reused for the coverText of each rule
}

// index builds the index of s in idx, reusing its arrays: one index
// serves every agent set of a file in turn.
func (s *ruleSet) index(idx *shadowIndex) {
	nAllow, n, longest := 0, 0, 0
	for _, r := range s.rules {
		longest = max(longest, len(r.pattern))
		if matchable(r.pattern) {
			n++
			if r.allow && !r.derived {
				nAllow++
			}
		}
	}
	idx.byPrefix = slices.Grow(idx.byPrefix[:0], n)
	idx.allows = slices.Grow(idx.allows[:0], nAllow)
	idx.lengths = idx.lengths[:0]
	if idx.lengths == nil {
		idx.lengths = make([]int32, 0, 16) // patterns have a few distinct prefix lengths
	}
	// A rule's coverText has a byte for each byte of its pattern, and one
	// for its open end.
	idx.text = slices.Grow(idx.text[:0], longest+1)
	for i, r := range s.rules {
		if !matchable(r.pattern) {
			continue
		}
		idx.byPrefix = append(idx.byPrefix, int32(i))
		if r.allow && !r.derived {
			idx.allows = append(idx.allows, int32(i))
		}
	}
	prefix := s.literalPrefix
	slices.SortFunc(idx.byPrefix, func(a, b int32) int {
		if c := strings.Compare(prefix(a), prefix(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	slices.SortFunc(idx.allows, func(a, b int32) int {
		if c := strings.Compare(s.rules[a].pattern, s.rules[b].pattern); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	distinct := 0
	for k, i := range idx.byPrefix {
		if k == 0 || prefix(i) != prefix(idx.byPrefix[k-1]) {
			distinct++
		}
		n := int32(len(prefix(i)))
		if k, found := slices.BinarySearch(idx.lengths, n); !found {
			idx.lengths = slices.Insert(idx.lengths, k, n)
		}
	}
	idx.starts.reset(distinct)
	for k, i := range idx.byPrefix {
		if k == 0 || prefix(i) != prefix(idx.byPrefix[k-1]) {
			idx.starts.add(idx.starts.hash(prefix(i)), int32(k), nil)
		}
	}
}

// coveredBy returns the index in s.rules of a rule that takes precedence
// over rule i wherever i matches, and whether it has the same pattern; -1
// if none is found. buf is reused for the rule's coverText.
func (s *ruleSet) coveredBy(i int, idx *shadowIndex, budget *int, buf []byte) (int, bool, []byte) {
	r := &s.rules[i]
	if !matchable(r.pattern) {
		return -1, false, buf
	}
	if !r.allow && !r.derived {
		k, _ := slices.BinarySearchFunc(idx.allows, r.pattern, func(a int32, p string) int {
			return strings.Compare(s.rules[a].pattern, p)
		})
		if k < len(idx.allows) && s.rules[idx.allows[k]].pattern == r.pattern {
			return int(idx.allows[k]), true, buf
		}
	}
	buf = appendCoverText(buf[:0], r.pattern)
	text := swar.String(buf)
	t0 := textPrefix(text)
	for _, n := range idx.lengths {
		if int(n) > len(t0) || *budget <= 0 {
			break
		}
		key := t0[:n]
		k, ok := s.start(idx, key)
		if !ok {
			continue
		}
		for ; k < len(idx.byPrefix); k++ {
			j := int(idx.byPrefix[k])
			o := &s.rules[j]
			if o.pattern[:o.prefix] != key {
				break
			}
			if o.allow == r.allow || !(len(o.pattern) > len(r.pattern) || len(o.pattern) == len(r.pattern) && o.allow) {
				continue
			}
			*budget -= 1 + len(o.pattern)/64
			if pattern.Match(o.pattern, text) {
				return j, false, buf
			}
		}
	}
	return -1, false, buf
}

// start returns the first position in idx.byPrefix of the rules whose
// literal prefix is key, if there are any.
func (s *ruleSet) start(idx *shadowIndex, key string) (int, bool) {
	k := idx.starts.find(idx.starts.hash(key), func(k int32) bool {
		return s.literalPrefix(idx.byPrefix[k]) == key
	})
	return int(k), k >= 0
}

// matchable reports whether a pattern can match some path, which always
// starts with '/'.
func matchable(p string) bool {
	return p != "" && (p[0] == '/' || p[0] == '*')
}

// textPrefix returns the literal start of a coverText: the bytes before its
// first 0xFF.
func textPrefix(t string) string {
	if i := strings.IndexByte(t, 0xFF); i >= 0 {
		return t[:i]
	}
	return t
}

// appendCoverText appends to dst pattern p as a string that another
// pattern matches only if it matches every path p matches: each '*' of p,
// and its open end unless p ends in '$', become the byte 0xFF, which no
// pattern in wire form contains, so that only a '*' can absorb it.
func appendCoverText(dst []byte, p string) []byte {
	anchored := strings.HasSuffix(p, "$")
	if anchored {
		p = p[:len(p)-1]
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '*' {
			dst = append(dst, 0xFF)
		} else {
			dst = append(dst, p[i])
		}
	}
	if !anchored {
		dst = append(dst, 0xFF)
	}
	return dst
}

// A keyedFinding is a finding about the rule with key k.
type keyedFinding struct {
	k ruleKey
	f finding
}

// literalPrefix returns the literal prefix of rule i's pattern.
func (s *ruleSet) literalPrefix(i int32) string {
	r := &s.rules[i]
	return r.pattern[:r.prefix]
}

// literalPrefixLen returns the length of the literal prefix of p.
func literalPrefixLen(p string) int32 {
	q, _ := pattern.LiteralPrefix(p)
	return int32(len(q))
}
