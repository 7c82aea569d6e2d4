// Package redisstore implements store.Store (every part of it) on Redis, so that several
// server instances share rooms, listings and the quick-match queue.
//
// # Keys
//
// Every key is built in keys.go, under a configurable prefix ("golf:").
// A room's keys carry the room code as a hash tag, so they live in one
// Redis Cluster slot and one Lua script may touch them all:
//
//	golf:{ABCD}:snap     hash: v (version), data (the last snapshot), sv (its version), ttl (ms, set by Expire)
//	golf:{ABCD}:log      stream of events, entry IDs "<version>-0", capped at HistoryLen
//	golf:{ABCD}:listing  string: the room's listing data, while it is public
//	golf:{ABCD}:bots     hash: the records of the room's bots (SetBot), by bot id
//	golf:listings:{N}    16 sorted sets (N = FNV-1a of the code mod 16) of listed room codes, scored by first listing time
//	golf:botdue:{N}      16 sorted sets (N as for listings) of "room\x00id" of bot records, scored by due time (Unix ms)
//	golf:botrooms[:{N}]  earlier versions' sets of rooms with bots: MigrateBots moves them into golf:botdue:{N} and deletes them
//	golf:{ID}:board      sorted set: a tournament's leaderboard; golf:{ID}:closed marks it closed
//	golf:{tournaments}:order, :data, :seq, :due, :expires   the tournament list, its clock's index and closing times
//	golf:lease:<key>     string: the owner of the lease named key, expiring with it
//	golf:pair:{key}      list: the quick-match queue named key
//	golf:limit:<a>|<c>  string: a client's token bucket for an action (Limiter, GCRA), expiring once full again
//	golf:socks:<client> sorted set: a client's open WebSockets (Sockets), scored by when each stops counting
//	golf:inbox:{box}:items, :order  an inbox (Inboxes): a hash of its items by id and the list of their ids, newest first, expiring together
//
// All keys of a room get the same time to live, refreshed by Append once
// an eighth of it has run (a room is kept between 7/8 of its time to live
// and all of it after its last Append); SetListing and SetBot give a new
// key the snapshot's time left.
// The listing index shards golf:listings:{N} and the bots' due-time shards
// golf:botdue:{N} live in other slots, so they cannot be updated in the
// room's scripts: Listings skips (and removes) codes whose listing key has
// expired, DueBots entries whose bot record is gone; both keep twice the
// rooms' time to live from their last write. Listings reads the newest
// codes of every shard in one pipeline, merges them newest first and
// leaves out a shard it cannot read; DueBots likewise reads the due
// entries of every shard at once, soonest first, and leaves out a shard
// it cannot read (its bots wait for the next sweep).
//
// A closed tournament (CloseTournament) is in golf:{tournaments}:expires
// with the time it goes; TournamentList and Due prune the ones whose time
// is up from the list and the due-time index, and its board's TTL is set
// to the same time (later SetScores keep to it, reading the marker).
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
// checks the version, adds each event to the stream, publishes it, writes
// the snapshot when it is due (store.SnapshotDue: every SnapshotEvery
// events, with a Replay) and refreshes the time to live when due in one
// atomic step; Load reads the snapshot and the events after it in one script and
// folds them with Options.Replay. A room written before snapshots were
// spaced has no sv: its snapshot is at its version, and its next Append
// records that.
//
// # Group commit
//
// Appends that arrive while others are on their way to Redis wait for the
// next pipeline and go together, whatever their rooms (batch.go: two
// pipelines on their way at most, 128 appends at most each; on a Cluster
// go-redis splits a pipeline by node). Each Append returns once its own
// script has answered, so a stored event is what an acknowledgement
// means, and a room's appends keep their order (its hub waits for each).
// With WaitReplicas each Append goes alone, followed by its WAIT.
//
// # Fan-out
//
// Append publishes each event on the room's channel (golf:{ABCD}:events) as
// "<version>:<data>"; Notify publishes on golf:topic:<topic>. On a Redis
// Cluster the room's channel is sharded: the scripts SPUBLISH (the channel
// has the room's hash tag, so it is in the room's slot and not broadcast
// to every node) and the Store SSUBSCRIBEs on one connection per master
// (made with its first channel, so go-redis routes it, and its
// reconnections after a failover, to that channel's master; closed with
// its last channel; when go-redis resubscribes a reconnected connection's
// channels in one SSUBSCRIBE, which Redis refuses for channels of several
// slots, the fanout subscribes them again one by one). Topics are sharded
// channels too: go-redis sends a plain PUBLISH to any node, which passes it
// on over the cluster bus, so two notices published one after the other
// could arrive in the other order (the contract suite saw it in CI, and in
// 68 of 300 runs on a loaded machine). Otherwise each Store
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
// # Clients and durability
//
// NewClient builds the client of a mode (single, cluster, sentinel, or
// detected). A Cluster client reloads its slot map every second while in
// use and at once after a connection error (go-redis by itself only on
// MOVED and READONLY, and otherwise every minute), so a failover costs the
// time the cluster takes to promote a replica. With Options.WaitReplicas,
// Create and Append send WAIT after their script on the same connection
// (a pipeline to the master of the room's slot) and fail with
// store.ErrUnavailable when too few replicas confirm.
//
// Errors: a missing room is store.ErrNotFound; failures to reach Redis
// wrap store.ErrUnavailable.
package redisstore
