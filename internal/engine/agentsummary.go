package engine

// An agentSummary sums up the product tokens of a file's user-agent lines,
// ignoring ASCII case, as a scoped set's pass reads them: a later agent
// with a bit missing is named by no group, and shares the set of the
// agents no group names without another pass over the file (see
// File.scope). It is a filter of 256 bits, two a token: a file that names
// a hundred agents (lists of crawlers shut out, one group each) still
// leaves most agents a bit missing, where the 64 bits it replaced were
// nearly full, and such files are the ones whose pass costs the most.
// Over the corpus, for 21 common crawler names each asked of every file,
// the files read again for an agent they do not name went from 967 (7.3
// MB) with 64 bits and a hash of the length and the first and last bytes,
// to 284 (3.5 MB).
type agentSummary [4]uint64

// agentHash hashes a product token, ignoring ASCII case: its length and
// its first two and last two bytes, so that a user-agent line costs a few
// instructions (hashing every byte cost 1.7 M instructions a corpus pass,
// +2.6 % of parse + 1 check). The second bytes tell apart the many names
// that share a length and their first and last bytes ("bingbot",
// "BLEXBot"). A byte counts with its 0x20 bit set: the case of a letter
// is that bit, and tokens equal but for case hash alike (other bytes
// made alike only share a hash more often).
func agentHash(token string) uint32 {
	n := len(token)
	var ends uint32 // the first two and last two bytes
	if n > 1 {
		ends = uint32(token[0]) | uint32(token[1])<<8 | uint32(token[n-2])<<16 | uint32(token[n-1])<<24
	} else if n == 1 {
		ends = uint32(token[0])
	}
	// Multiplied, the high bits, which the summary's bits are chosen
	// by, depend on every bit below them.
	return ((ends|0x20202020)*0x85EBCA6B ^ uint32(n)*0x9E3779B1) * 0x2C1B3C6D
}

// addHash adds the token whose agentHash is h to s. A pass over the file
// calls it with the hash found inline: a method that hashed the token
// itself is over the inlining budget, and a call a user-agent line took 1 % of a corpus pass's first
// questions (perf; -0.4 % instructions).
func (s *agentSummary) addHash(h uint32) {
	s[h>>22&3] |= 1 << (h >> 16 & 63)
	s[h>>30] |= 1 << (h >> 24 & 63)
}

// mayHold reports whether token may have been added to s: false when it
// was not.
func (s *agentSummary) mayHold(token string) bool {
	h := agentHash(token)
	return s[h>>22&3]>>(h>>16&63)&1 != 0 && s[h>>30]>>(h>>24&63)&1 != 0
}
