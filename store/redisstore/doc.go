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
//	golf:{ABCD}:bots     hash: the records of the room's bots (SetBot), by bot id
//	golf:listings        sorted set of listed room codes, scored by first listing time
//	golf:botrooms        set of the codes of rooms with bot records
//	golf:lease:<key>     string: the owner of the lease named key, expiring with it
//	golf:pair:{key}      list: the quick-match queue named key
//
// All keys of a room get the same time to live, refreshed by every Append.
// The listing index golf:listings and the set golf:botrooms live in other
// slots, so they cannot be updated in the room's scripts: Listings skips
// (and removes) codes whose listing key has expired, Bots codes whose bot
// hash is gone.
//
// A lease is taken with SET NX PX; renewing and releasing compare the
// owner first, each in a small script, so an owner whose lease expired
// can neither extend nor end the lease of whoever took it next.
//
// # Scripts
//
// Create, Append, Expire, showing a listing, Pair, recording a bot and
// renewing and releasing a lease are Lua scripts, one
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
