package seeds

import (
	"hash/fnv"
	"math/rand/v2"
	"strconv"
)

// Hash is the 64-bit FNV-1a hash of name: the stable key of a stream.
func Hash(name string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name)) // hash.Hash never fails
	return h.Sum64()
}

// Stream returns the source of component name in the run of seed. The
// same (seed, name) always yields the same sequence; distinct names yield
// independent ones.
func Stream(seed uint64, name string) *rand.Rand {
	return rand.New(rand.NewPCG(seed, Hash(name)))
}

// Decision returns a fresh source for the n-th decision of class about
// key (n counts from 0 per (class, key)). Its draws depend only on the
// seed, class, key and n, so decisions taken by concurrent goroutines do
// not depend on which goroutine asked first.
func Decision(seed uint64, class, key string, n uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^Hash(class), Hash(key+"#"+strconv.FormatUint(n, 10))))
}

// ID returns a UUID-shaped identifier drawn from r (8-4-4-4-12 lower-case
// hex), for deterministic alloc, node and eval IDs.
func ID(r *rand.Rand) string {
	const hex = "0123456789abcdef"
	a, b := r.Uint64(), r.Uint64()
	var buf [36]byte
	pos := 0
	for i := 0; i < 32; i++ {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			buf[pos] = '-'
			pos++
		}
		word := a
		shift := uint(60 - 4*i)
		if i >= 16 {
			word = b
			shift = uint(60 - 4*(i-16))
		}
		buf[pos] = hex[(word>>shift)&0xf]
		pos++
	}
	return string(buf[:])
}
