// Package memstore implements store.Store in memory, for a single server
// instance: the default when no Redis is configured.
//
// One mutex guards everything; a room's state changes only under it, so
// Append's version check and the log update are one step. Subscribers each
// get a small buffered channel and are never waited on: when a buffer is
// full the entry is dropped for that subscriber, which sees the gap in the
// versions and calls Since. Expired rooms are removed lazily when touched
// and by a cheap sweep on Create and Append; there is no background
// goroutine.
//
// Like the Redis store, it keeps a room's snapshot only every
// SnapshotEvery events when given a Replay, and folds the events after it
// on Load, so the contract suite tests one behaviour on both. Bots carry
// their due time in their record; closed tournaments go when their time
// is up (checked whenever the tournaments are touched).
//
// Byte slices passed in are copied. Entries delivered to subscribers share
// one copy between them and must not be modified.
package memstore
