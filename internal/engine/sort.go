package engine

import "slices"

// compareRules orders compiled rules, whose patterns are spans of text:
// longer patterns first, then allow before disallow. Rules that tie keep
// file order: the sorts that use it are stable, and their input in file
// order (see sortRules); a scan in file order keeps the first.
func compareRules(a, b compiledRule, text string) int {
	if pa, pb := a.priority(text), b.priority(text); pa != pb {
		return pb - pa
	}
	if a.allow() != b.allow() {
		if a.allow() {
			return -1
		}
		return 1
	}
	return 0
}

// sortRules writes src to dst in compareRules order. The rules of src that
// tie on length and kind must be in file order (as they are when src is
// in file order, or is sorted groups in file order), so that a stable
// sort on (length, allow) suffices. text is the string block of the rules'
// patterns.
//
// dst may be src itself when len(src) <= sortInPlaceMax: the insertion
// sort reads each rule before it writes where it was.
func sortRules(dst, src []compiledRule, text string) {
	const small = sortInPlaceMax
	if len(src) <= small {
		// Insertion sort on the rank alone: each rule goes after every
		// rule of its rank already placed, which keeps file order. The
		// ranks are found once, and move with their rules.
		var ranks [small]int32
		for i := range src {
			v := src[i]
			rank := int32(sortRank(&v, text))
			j := i
			for ; j > 0 && ranks[j-1] > rank; j-- {
				dst[j], ranks[j] = dst[j-1], ranks[j-1]
			}
			dst[j], ranks[j] = v, rank
		}
		return
	}
	// Counting sort on key = 2*(maxLen-len) + (1 if disallow): stable, and
	// linear when patterns are short, as they almost always are.
	maxLen, compact := 0, false
	for i := range src {
		if src[i].info&ruleCompact != 0 {
			compact = true
			break
		}
		maxLen = max(maxLen, int(src[i].n))
	}
	if compact {
		// The wire length of a compact pattern counts its bytes >= 0x80:
		// found once a rule (thousands of non-ASCII hostile rules took
		// three passes over their patterns).
		sortCompact(dst, src, text)
		return
	}
	if maxLen > 8*len(src) {
		copy(dst, src)
		slices.SortStableFunc(dst, func(a, b compiledRule) int { return compareRules(a, b, text) })
		return
	}
	// sortRank less the ranks no pattern of src can have.
	base := 2 * (maxPatternLen - maxLen)
	// The counts of usual lengths fit on the stack.
	var counts [256]int32
	var count []int32
	if n := 2*maxLen + 3; n <= len(counts) {
		count = counts[:n]
	} else {
		count = make([]int32, n)
	}
	// No pattern in compact form: the ranks of plainRank, inlined. Rules
	// already in order (a file of one long run of rules of one length and
	// kind, as hostile files are) are copied.
	prev, sorted := 0, true
	for i := range src {
		k := plainRank(&src[i]) - base
		count[k+1]++
		sorted = sorted && k >= prev
		prev = k
	}
	if sorted {
		copy(dst, src)
		return
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	for i := range src {
		k := plainRank(&src[i]) - base
		dst[count[k]] = src[i]
		count[k]++
	}
}

// sortCompact is sortRules for more than sortInPlaceMax rules, some in
// compact form: their ranks are found once, into a scratch array.
func sortCompact(dst, src []compiledRule, text string) {
	// The ranks and counts of usual sets fit on the stack.
	var rankBuf, countBuf [256]int32
	var ranks []int32
	if len(src) <= len(rankBuf) {
		ranks = rankBuf[:len(src)]
	} else {
		ranks = make([]int32, len(src))
	}
	maxLen := 0
	for i := range src {
		p := src[i].priority(text)
		maxLen = max(maxLen, p)
		ranks[i] = int32(rankOf(p, src[i].info))
	}
	if maxLen > 8*len(src) {
		copy(dst, src)
		slices.SortStableFunc(dst, func(a, b compiledRule) int { return compareRules(a, b, text) })
		return
	}
	base := int32(2 * (maxPatternLen - maxLen))
	var count []int32
	if n := 2*maxLen + 3; n <= len(countBuf) {
		count = countBuf[:n]
	} else {
		count = make([]int32, n)
	}
	for _, k := range ranks {
		count[k-base+1]++
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	for i := range src {
		k := ranks[i] - base
		dst[count[k]] = src[i]
		count[k]++
	}
}

// plainRank is sortRank for a rule not in compact form.
func plainRank(c *compiledRule) int { return rankOf(int(c.n), c.info) }

// rankOf is the sortRank of a rule not in compact form whose pattern is n
// bytes long and whose flags are info.
func rankOf(n int, info uint8) int {
	return (maxPatternLen-n)<<1 | int(^info&ruleAllow)
}

// sortRank orders rules as compareRules does but for file order: longer
// patterns first, then allow before disallow.
func sortRank(c *compiledRule, text string) int { return rankOf(c.priority(text), c.info) }
