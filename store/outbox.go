package store

import (
	"context"
	"time"
)

// OutboxEntry is work to be done because of a room's event: a finished
// rated round to record, a finished hole to analyse. It is written with
// the event, in the same atomic step (AppendOutbox), and kept, beyond the
// room's own time to live, until a relay has queued its job and calls
// OutboxDone: so a process that dies right after the event leaves the
// work to be picked up by any other.
type OutboxEntry struct {
	// Room is the room (or tournament) whose event wrote it; set by the
	// store.
	Room string
	// Key identifies the work (the job's unique key): a room keeps one
	// entry per key, the first written.
	Key string
	// Kind is the job's kind; Data its arguments (JSON).
	Kind string
	Data []byte
	// At is when the work became due (the round's end): the relay queues
	// the oldest first.
	At time.Time
}

// Outbox keeps the entries written with rooms' events until they are
// relayed to the job queue.
type Outbox interface {
	// AppendOutbox is RoomLog.Append that also writes the entries, in
	// the same atomic step: the events and the entries are both stored,
	// or (an error) neither. An entry whose key the room already holds
	// is left as it was.
	AppendOutbox(ctx context.Context, room string, expect int64, snapshot []byte, entries []OutboxEntry, events ...[]byte) (int64, error)

	// PendingOutbox returns at most limit entries not yet done, oldest
	// (At) first.
	PendingOutbox(ctx context.Context, limit int) ([]OutboxEntry, error)

	// OutboxDone removes entries (by Room and Key) once their jobs are
	// queued. Removing an entry that is gone is not an error.
	OutboxDone(ctx context.Context, entries ...OutboxEntry) error

	// OutboxStats returns how many entries are pending and when the
	// oldest of them was written (zero when none).
	OutboxStats(ctx context.Context) (pending int, oldest time.Time, err error)
}
