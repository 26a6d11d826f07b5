package lint

import "testing"

// A chunkList holds what was pushed, in order, read sequentially or by
// index, across the doubling chunks and the full-size ones after them;
// its chunks double up to maxChunk elements.
func TestChunkList(t *testing.T) {
	var c chunkList[int32]
	const n = doubledElems + 3*maxChunk + 5
	for i := range n {
		c.push(int32(i))
	}
	if c.len() != n {
		t.Fatalf("len %d, want %d", c.len(), n)
	}
	for i := range n {
		if got := c.at(i); got != int32(i) {
			t.Fatalf("at(%d) = %d", i, got)
		}
	}
	i := 0
	for k, chunk := range c.chunks {
		if want := min(firstChunk<<k, maxChunk); cap(chunk) != want {
			t.Errorf("chunk %d has room for %d, want %d", k, cap(chunk), want)
		}
		for _, v := range chunk {
			if v != int32(i) {
				t.Fatalf("chunk %d holds %d at %d", k, v, i)
			}
			i++
		}
	}
	if cap(c.chunks[doubledChunks-1]) != maxChunk || cap(c.chunks[doubledChunks-2]) == maxChunk {
		t.Errorf("doubledChunks = %d does not end the doubling", doubledChunks)
	}
}
