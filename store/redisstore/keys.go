package redisstore

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

// listings is the sorted set of listed room codes.
func (k keys) listings() string { return k.prefix + "listings" }

// botRooms is the set of the codes of rooms with bot records.
func (k keys) botRooms() string { return k.prefix + "botrooms" }

// lease is the lease named key: a string holding its owner, expiring with
// the lease.
func (k keys) lease(key string) string { return k.prefix + "lease:" + key }

// queue is the quick-match queue named key.
func (k keys) queue(key string) string { return k.prefix + "pair:{" + key + "}" }

// topic is the pub/sub channel of Notify and Listen.
func (k keys) topic(topic string) string { return k.prefix + "topic:" + topic }

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

// board is a tournament leaderboard: with the tournament's id, it shares
// the {hash tag} of the tournament's snapshot and log.
func (k keys) board(board string) string { return k.room(board) + "board" }
