// Package match implements rooms and rounds: settings, seats, holes played
// on identical deals, the clock and disconnect rules, stroke-play and
// match-play standings, and what each participant may see.
//
// A room is event-sourced. Its state is the fold of its events: Apply is the
// one place a room changes, it is deterministic (time comes from the event,
// never from the clock) and it validates before it mutates, so an event it
// rejects changes nothing. Room-wide transitions (a hole ending, the next
// hole starting, the round ending) happen inside Apply as consequences of
// the event that causes them, so they happen exactly once however many
// server instances race: the store accepts only one event per version.
//
// The package is pure: no I/O and no goroutines. The server stores the
// events and snapshots (package store) and sends views (View) to clients.
package match
