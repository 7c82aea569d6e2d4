package golf

import "crypto/sha256"

// PooledRoundSeed is the round seed of a round whose hole deals were taken
// from a pool of pre-rated seeds (winnable-only and difficulty rounds,
// deals.md "Pooled rounds"): SHA-256("pool:" ‖ the deal seeds' bytes, in
// hole order). Its commitment, SHA-256 of this seed, is published before
// play as for any round, so it commits to every deal of the round; once
// the round is over the round seed and the deal seeds are revealed and
// anyone can recompute both hashes.
func PooledRoundSeed(deals []Seed) Seed {
	h := sha256.New()
	h.Write([]byte("pool:"))
	for _, d := range deals {
		h.Write(d[:])
	}
	var s Seed
	h.Sum(s[:0])
	return s
}
