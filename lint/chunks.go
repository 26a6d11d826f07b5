package lint

import "math/bits"

// A chunkList is a list that grows by chunks rather than by copying: the
// chunks double from firstChunk elements up to maxChunk, so what it
// allocates stays within a small margin of what it holds, where append's
// 1.25x growth of one large slice allocates up to five times that, and a
// short list stays small.
type chunkList[T any] struct {
	chunks [][]T
	n      int
}

const (
	firstChunk = 8
	maxChunk   = 1024
	// doubledElems is how many elements the chunks of doubling size
	// (8, 16, ..., 1024) hold together; every later chunk holds maxChunk.
	doubledElems  = firstChunk * (2*maxChunk/firstChunk - 1)
	doubledChunks = 8 // log2(maxChunk/firstChunk) + 1
)

// push appends v.
func (c *chunkList[T]) push(v T) {
	if k := len(c.chunks); k == 0 || len(c.chunks[k-1]) == cap(c.chunks[k-1]) {
		size := firstChunk
		if k > 0 {
			size = min(2*cap(c.chunks[k-1]), maxChunk)
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

// len returns the number of elements.
func (c *chunkList[T]) len() int { return c.n }

// at returns element i.
func (c *chunkList[T]) at(i int) T {
	if i < doubledElems {
		// Chunk k holds firstChunk<<k elements from firstChunk*(2^k-1) on.
		k := bits.Len(uint(i/firstChunk+1)) - 1
		return c.chunks[k][i-firstChunk*(1<<k-1)]
	}
	i -= doubledElems
	return c.chunks[doubledChunks+i/maxChunk][i%maxChunk]
}
