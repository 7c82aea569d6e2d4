// Package results is the work a finished round leaves behind, run by the
// job queue's workers (package jobs: any `golf serve` instance, or `golf
// worker`), never on a room's goroutine:
//
//   - Recorder records a finished rated round or tournament: the archive
//     and every player's new rating, in one step of the account store,
//     exactly once (the archive refuses a second record of a game id, so
//     a job run again changes nothing) and, per player, in the order the
//     rounds ended (the jobs' subjects are the players); a round with a
//     player held for fair-play review is held instead (fairplay/review,
//     docs/fairplay.md) and recorded once a moderator clears them.
//   - Analyser analyses finished holes for fair play (fairplay/review),
//     each hole once: a hole already in the player's evidence is not
//     added again.
//
// The room's side is one outbox entry written with the round's last
// event (RoundJob, HoleJob give the jobs): so a process that dies after
// the event, or a database that is down when the round ends, delays the
// record and never loses it.
package results
