package redisstore

import "strconv"

// keys builds every Redis key and channel name the store uses. Room codes
// and pair keys go inside a {hash tag}, so they must not contain braces.
type keys struct {
	prefix string
}

// room is the common part of a room's keys: "golf:{ABCD}:".
func (k keys) room(room string) string { return k.prefix + "{" + room + "}:" }

// snapshot is the hash holding the room's version, snapshot and TTL.
func (k keys) snapshot(room string) string { return k.room(room) + "snap" }

// log is the stream of the room's events.
func (k keys) log(room string) string { return k.room(room) + "log" }

// listing holds the room's listing data while the room is public.
func (k keys) listing(room string) string { return k.room(room) + "listing" }

// bots is the hash of the room's bot records (SetBot), by bot id.
func (k keys) bots(room string) string { return k.room(room) + "bots" }

// events is the pub/sub channel of the room's new entries.
func (k keys) events(room string) string { return k.room(room) + "events" }

// listingShards is how many sorted sets the listing index is split into,
// each in a slot of its own, so that one Cluster shard failing hides only
// part of the lobby and no one node takes every listing write.
const listingShards = 16

// listings is the index shard of room: a sorted set of listed room codes,
// scored by first listing time, "golf:listings:{7}".
func (k keys) listings(room string) string { return k.listingShard(listingShard(room)) }

// listingShard is the key of the index shard n.
func (k keys) listingShard(n int) string {
	return k.prefix + "listings:{" + strconv.Itoa(n) + "}"
}

// listingShard is the index shard of a room code (FNV-1a).
func listingShard(room string) int {
	h := uint32(2166136261)
	for i := 0; i < len(room); i++ {
		h ^= uint32(room[i])
		h *= 16777619
	}
	return int(h % listingShards)
}

// botDue is the due-time index shard of a room's bots: a sorted set of
// "room\x00id" by the time (Unix ms) each bot is next due. It is split
// like the listing index: "golf:botdue:{7}" holds the bots of the rooms
// whose listingShard is 7, so one Cluster shard failing delays only
// their bots.
func (k keys) botDue(room string) string { return k.botDueShard(listingShard(room)) }

// botDueShard is the key of the bots' due-time shard n.
func (k keys) botDueShard(n int) string {
	return k.prefix + "botdue:{" + strconv.Itoa(n) + "}"
}

// lease is the lease named key: a string holding its owner, expiring with
// the lease.
func (k keys) lease(key string) string { return k.prefix + "lease:" + key }

// queue is the quick-match queue named key.
func (k keys) queue(key string) string { return k.prefix + "pair:{" + key + "}" }

// topic is the pub/sub channel of Notify and Listen.
func (k keys) topic(topic string) string { return k.prefix + "topic:" + topic }

// bucket is a client's token bucket (Limiter), named by the action and the
// client: "golf:limit:rooms|203.0.113.7".
func (k keys) bucket(key string) string { return k.prefix + "limit:" + key }

// sockets is the sorted set of a client's open WebSockets (Sockets):
// "golf:socks:203.0.113.7".
func (k keys) sockets(client string) string { return k.prefix + "socks:" + client }

// roomKeys are the keys a room's scripts touch, in the order the scripts
// expect them.
func (k keys) roomKeys(room string) []string {
	return []string{k.snapshot(room), k.log(room), k.listing(room), k.bots(room)}
}

// tournamentOrder is the sorted set of listed tournament ids, by the order
// they were first listed; tournamentData the hash of their listing data;
// tournamentSeq the counter that orders them. One {hash tag} for the three.
func (k keys) tournamentOrder() string { return k.prefix + "{tournaments}:order" }
func (k keys) tournamentData() string  { return k.prefix + "{tournaments}:data" }
func (k keys) tournamentSeq() string   { return k.prefix + "{tournaments}:seq" }

// tournamentDue is the sorted set of tournament ids by the time (Unix ms)
// they next need their clock.
func (k keys) tournamentDue() string { return k.prefix + "{tournaments}:due" }

// tournamentExpires is the sorted set of closed tournament ids by the
// time (Unix ms) they go (CloseTournament).
func (k keys) tournamentExpires() string { return k.prefix + "{tournaments}:expires" }

// closed marks a closed tournament until its leaderboard goes.
func (k keys) closed(id string) string { return k.room(id) + "closed" }

// board is a tournament leaderboard: with the tournament's id, it shares
// the {hash tag} of the tournament's snapshot and log.
func (k keys) board(board string) string { return k.room(board) + "board" }

// outbox is the hash of a room's outbox entries (store.Outbox), by key;
// in the room's slot, so append.lua writes it with the events.
func (k keys) outbox(room string) string { return k.room(room) + "outbox" }

// outboxIndex is the index shard of the rooms that may hold outbox
// entries: a sorted set of room codes by when (Unix ms) an entry was last
// written. Split like the listing index: "golf:outbox:{7}".
func (k keys) outboxIndex(room string) string { return k.outboxShard(listingShard(room)) }

// outboxShard is the key of the outbox index shard n.
func (k keys) outboxShard(n int) string {
	return k.prefix + "outbox:{" + strconv.Itoa(n) + "}"
}
