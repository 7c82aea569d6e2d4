// Package tourney implements tournaments over shared deals: stroke-play
// tournaments where every entrant plays the same holes at their own pace,
// and match-play knockouts where each round's matches are played on that
// round's deals.
//
// A tournament is event-sourced like a room (package match): its state is
// the fold of its events (create, join, start, room, result, close and,
// for knockouts, match and decided), Apply is the one place it changes, it
// validates before it mutates and time comes from the events, never from
// the clock.
//
// Fairness rules live here. Round seeds are drawn when the tournament is
// created and only their commitments are shown until it closes. A hole's
// boards and records are shown to anyone other than the player only when
// the hole is safe: every entrant still to play it has finished it, or the
// tournament has closed (Safe). Before that, others see scores and progress.
//
// The package is pure: no I/O and no goroutines. The server stores the
// events and snapshots, keeps the leaderboard in the store's sorted sets
// (SortKey is its score) and runs the entrants' holes in ordinary match
// rooms marked as tournament rooms.
package tourney
