// Package seedpool keeps the pools of pre-rated deals that winnable-only
// and difficulty rounds draw from (store.SeedPools: in memory, or shared
// on Redis) and fills them in the background, each candidate deal a
// low-priority job of the solver pool. The server asks for a pool when a
// room that needs one is created (Want) and takes a round's deals from it
// (Pop); it answers try_again when the pool is short.
package seedpool
