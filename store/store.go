// Package store defines how rooms are kept, as small interfaces each with
// its own contract suite (storetest): RoomLog, an append-only, versioned
// log of events per room with a snapshot written every few events and a
// capped history for reconnecting clients; Bus, the fan-out of new events
// to every server instance; Lobby, the public room listing; Matchmaker,
// the quick-match queue; Bots and Leases, the records of the bots the
// servers run, in a due-time index, and leases that let one instance at a
// time run each of them; Tournaments and Leaderboards (tournament.go),
// SeedPools (seedpool.go) and Outbox (outbox.go), the work a room's
// events leave to the job queue. Store is all of them in one value.
//
// The store knows nothing of Golf: snapshots and events are opaque bytes
// produced by the match package, folded by a Replay the server gives.
// Implementations live in subpackages (memstore, the default; redisstore
// for several instances) and pass the contract suites.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors every implementation returns (wrapped or as is; test with
// errors.Is).
var (
	// ErrNotFound: no room with that code (or it expired).
	ErrNotFound = errors.New("store: room not found")
	// ErrExists: Create was called with a code already in use.
	ErrExists = errors.New("store: room already exists")
	// ErrConflict: Append's expected version is not the current version;
	// someone else appended first. Reload and retry.
	ErrConflict = errors.New("store: version conflict")
	// ErrTooOld: the history no longer reaches back to the version asked
	// for; the caller must send a full snapshot instead.
	ErrTooOld = errors.New("store: history no longer reaches that version")
	// ErrUnavailable: the backing service cannot be reached.
	ErrUnavailable = errors.New("store: unavailable")
)

// Entry is one event of a room's log. Versions start at 1 (the event that
// created the room) and increase by one per event.
type Entry struct {
	Version int64
	Data    []byte
}

// Snapshot is a room's state at a version.
type Snapshot struct {
	Version int64
	Data    []byte
}

// Listing is what the lobby shows of a room; Data is opaque (JSON from the
// server). Rooms that are not public are never listed.
type Listing struct {
	Room string
	Data []byte
}

// Bot is the record of a bot a server runs in a room (SetBot): the room,
// the bot's id in it and the server's opaque data.
type Bot struct {
	Room string
	ID   string
	Data []byte
}

// Subscription delivers the entries appended to one room, by any instance,
// in version order. A slow subscriber may miss entries: it sees a gap in
// the versions and calls Since. C is closed when the subscription ends
// (Close, the context passed to Subscribe, or the store closing).
type Subscription interface {
	C() <-chan Entry
	Close() error
}

// RoomLog keeps each room's log: an append-only, versioned list of
// events with a snapshot of the room's state written every few events
// (SnapshotEvery of the implementation's options, when it has a Replay to
// fold the events after it; on every Append when it has none). No
// acknowledged event is lost: the events after the last snapshot are
// kept with the room and Load folds them. Tournaments keep their log here
// too, under their id.
type RoomLog interface {
	// Create stores a new room with its snapshot at version 1 and its first
	// event. It returns ErrExists if the code is taken.
	Create(ctx context.Context, room string, snapshot []byte, first []byte) error

	// Load returns the room's state at its latest version: the last
	// snapshot written, with the events appended after it folded in by
	// the implementation's Replay.
	Load(ctx context.Context, room string) (Snapshot, error)

	// Append adds events to the room's log, in one atomic step, if and
	// only if the room is at version expect. The new version is
	// expect+len(events); the events get the versions in between.
	// snapshot is the room's state at the new version: it is written when
	// SnapshotDue(every, expect, len(events)) says so, and may be nil
	// otherwise. It returns ErrConflict, changing nothing, if the room has
	// moved on. Subscribers of the room (on every instance) receive the
	// events. Append refreshes the room's time to live: to the duration
	// last given to Expire, or else the store's default.
	// It returns ErrNotFound for an unknown room.
	Append(ctx context.Context, room string, expect int64, snapshot []byte, events ...[]byte) (int64, error)

	// Since returns the events after version v, oldest first (empty when v
	// is the current version). It returns ErrTooOld when the capped history
	// no longer holds version v+1 (or when v is ahead of the room, as after
	// the room expired and its code was reused), and ErrNotFound for an
	// unknown room.
	Since(ctx context.Context, room string, v int64) ([]Entry, error)

	// Expire sets how long the room is kept from now (finished rooms are
	// kept less long than live ones); later Appends refresh to this
	// duration. A ttl <= 0 removes the room now. It returns ErrNotFound for
	// an unknown room.
	Expire(ctx context.Context, room string, ttl time.Duration) error

	// SnapshotEvery is how many events apart Append writes snapshots (1:
	// on every Append), for callers that skip encoding a snapshot nobody
	// writes (SnapshotDue).
	SnapshotEvery() int
}

// Replay folds events onto a snapshot: it returns the state after them.
// The store calls it in Load with the last snapshot written and the
// events appended after it (never with none); the domain (match, tourney)
// knows how, the store does not.
type Replay func(room string, snapshot []byte, events []Entry) ([]byte, error)

// SnapshotDue reports whether an Append of n events to a room at version
// expect writes its snapshot, when snapshots are written every `every`
// events: when the new version reaches the next multiple of every. So the
// events after the last snapshot are fewer than every, and a caller can
// skip encoding a snapshot nobody writes.
func SnapshotDue(every int, expect int64, n int) bool {
	if every <= 1 {
		return true
	}
	e := int64(every)
	return (expect+int64(n))/e > expect/e
}

// Bus carries a room's new entries to every instance, and notices on
// topics.
type Bus interface {
	// Subscribe starts delivering the room's new entries. It returns
	// ErrNotFound for an unknown room. Entries appended before Subscribe
	// returns may or may not be delivered: subscribe first, then Load or
	// Since, and skip versions already seen.
	Subscribe(ctx context.Context, room string) (Subscription, error)

	// Notify sends data to whoever listens on the topic (any instance); it
	// is fire-and-forget. Listen receives them, as entries with Version 0;
	// a listener too slow to keep up misses some.
	Notify(ctx context.Context, topic string, data []byte) error
	Listen(ctx context.Context, topic string) (Subscription, error)

	// NotifyRoom sends data to the room's subscribers (Subscribe) on
	// every instance, as an entry with Version 0 among the room's
	// entries: fire-and-forget as Notify is, never stored (Load and
	// Since do not see it). A room's passing messages (its players'
	// reactions) ride on the subscription its instances hold anyway.
	NotifyRoom(ctx context.Context, room string, data []byte) error
}

// Lobby is the public listing of rooms.
type Lobby interface {
	// SetListing shows (data non-nil) or hides (data nil) a room in the
	// public listing. Showing an unknown room returns ErrNotFound; hiding
	// one that is not listed is not an error. The listing goes away with
	// the room when it expires.
	SetListing(ctx context.Context, room string, data []byte) error

	// Listings returns the public rooms, at most limit of them, the room
	// listed last (by its first SetListing) first: newest first, so that
	// many old rooms cannot hide new ones. Rooms that expired are not
	// listed (and are pruned from any index).
	Listings(ctx context.Context, limit int) ([]Listing, error)
}

// Matchmaker keeps the quick-match queues.
type Matchmaker interface {
	// Pair puts ticket in the waiting queue named key, unless someone is
	// already waiting there: then it takes that ticket out of the queue and
	// returns it (ok true). Atomic across instances, so two people waiting
	// for the same settings are paired exactly once.
	Pair(ctx context.Context, key, ticket string) (partner string, ok bool, err error)

	// Unpair takes ticket out of the queue key (the player gave up waiting).
	// It reports whether the ticket was still waiting.
	Unpair(ctx context.Context, key, ticket string) (bool, error)
}

// Bots keeps the records of the bots the servers run, each with the time
// it is next due for a sweep, in a due-time index (so a sweep reads the
// bots whose lease may have lapsed, not every record).
type Bots interface {
	// SetBot records (data non-nil) or forgets (data nil) the bot with the
	// id in the room: whatever a server instance needs to run that bot
	// again after the instance that ran it stopped. Data is opaque (the
	// server's; it holds the bot's seat token, a credential no client may
	// see). A recorded bot is due at once. The record goes away with the
	// room. Recording a bot of an unknown room returns ErrNotFound;
	// forgetting one that is not recorded is not an error.
	SetBot(ctx context.Context, room, id string, data []byte) error

	// DelayBot makes a recorded bot due at (the end of the lease of the
	// instance running it; a zero or past time: due now). A bot that is
	// not recorded is left alone (not an error).
	DelayBot(ctx context.Context, room, id string, at time.Time) error

	// DueBots returns the recorded bots due at or before until, at most
	// limit of them, soonest first; the bots of rooms that expired are
	// left out (and pruned from the index).
	DueBots(ctx context.Context, until time.Time, limit int) ([]Bot, error)
}

// Leases lets one instance at a time hold a named lease.
type Leases interface {
	// TakeLease gives owner the lease named key for ttl if nobody holds it
	// (it was never taken, was released, or expired). It reports whether
	// owner took it; while the lease is held, by anyone (owner included),
	// it returns false and changes nothing. Atomic across instances: of
	// several instances taking a free lease at once, one gets it.
	TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)

	// RenewLease makes owner's lease last ttl from now, if owner holds it
	// still. It returns false, changing nothing, when the lease expired
	// (even if nobody took it since) or is another owner's: the owner must
	// then stop what the lease guarded.
	RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)

	// ReleaseLease ends owner's lease now, so another owner may take it at
	// once. A lease owner does not hold (expired, or another's) is left
	// alone, and that is not an error.
	ReleaseLease(ctx context.Context, key, owner string) error
}

// Store is every part of a store, as one value: what the server is given.
// All methods are safe for concurrent use by many goroutines and, for the
// Redis store, by many processes.
type Store interface {
	RoomLog
	Bus
	Lobby
	Matchmaker
	Bots
	Leases
	Tournaments
	Leaderboards
	SeedPools
	Outbox
	Inboxes // inbox.go

	// Ping checks that the store and its fan-out are working (for /readyz).
	Ping(ctx context.Context) error

	// Close releases the store's resources and ends every subscription.
	// It does not close a client that was passed to the store.
	Close() error
}
