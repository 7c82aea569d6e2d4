// Package load plays real matches against a Golf server through the client
// package, with random legal moves, and measures what players feel: moves
// per second, the time from a move to its ack and to the opponent's
// update. Baseline is a bare WebSocket broadcast server that answers the
// same traffic with canned messages of the same sizes, so a run can say how
// close the real server comes to what the network stack alone allows.
//
// Every loop is bounded: setup by Config.SetupTimeout, play by
// Config.Duration.
package load
