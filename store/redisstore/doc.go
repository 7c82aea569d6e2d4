// Package redisstore implements store.Store on Redis, so that several
// server instances share rooms, listings and the quick-match queue.
//
// # Keys
//
// Every key is built in keys.go, under a configurable prefix ("golf:").
// A room's keys carry the room code as a hash tag, so they live in one
// Redis Cluster slot and one Lua script may touch them all:
//
//	golf:{ABCD}:snap     hash: v (version), data (snapshot), ttl (ms, set by Expire)
//	golf:{ABCD}:log      stream of events, entry IDs "<version>-0", capped at HistoryLen
//	golf:{ABCD}:listing  string: the room's listing data, while it is public
//	golf:listings        sorted set of listed room codes, scored by first listing time
//	golf:pair:{key}      list: the quick-match queue named key
//
// All keys of a room get the same time to live, refreshed by every Append.
// The listing index golf:listings lives in another slot, so it cannot be
// updated in the room's scripts: Listings skips (and removes) codes whose
// listing key has expired.
//
// # Scripts
//
// Create, Append, Expire, showing a listing and Pair are Lua scripts, one
// per .lua file, each with a header documenting its KEYS and ARGV. Append
// checks the version, replaces the snapshot, adds each event to the stream,
// publishes it and refreshes the time to live in one atomic step.
//
// # Fan-out
//
// Append publishes each event on the room's channel (golf:{ABCD}:events) as
// "<version>:<data>"; Notify publishes on golf:topic:<topic>. Each Store
// holds ONE pub/sub connection for all its subscribers: the first local
// subscriber of a channel subscribes, the last one to leave unsubscribes,
// and one goroutine hands messages to the local subscribers without
// waiting (a subscriber whose buffer is full misses the entry).
//
// Redis pub/sub delivers at most once. When the pub/sub connection breaks,
// go-redis reconnects and resubscribes on the next receive, and the
// subscriptions go on, but entries published in between are lost: a
// subscriber notices the gap in the versions at the next entry and calls
// Since, as it does when it was too slow. Ping round-trips a PING through
// the pub/sub connection, so a readiness check sees a broken fan-out.
//
// Errors: a missing room is store.ErrNotFound; failures to reach Redis
// wrap store.ErrUnavailable.
package redisstore
