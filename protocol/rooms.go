package protocol

import (
	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// RoomInfo is GET /api/rooms/{code}: what anyone may know of a room.
type RoomInfo struct {
	Code       string           `json:"code"`
	V          int64            `json:"v"`
	Settings   match.Settings   `json:"settings"`
	Status     match.Status     `json:"status"`
	Round      int              `json:"round"`
	Hole       int              `json:"hole"`
	Seats      []match.SeatView `json:"seats"`
	Standings  match.Standings  `json:"standings"`
	Commitment string           `json:"commitment,omitempty"`
	Seed       string           `json:"seed,omitempty"`
}

// Records is GET /api/rooms/{code}/records: every record of every hole
// that everyone has finished; the seed once the round is over.
type Records struct {
	Code       string `json:"code"`
	Round      int    `json:"round"`
	Commitment string `json:"commitment,omitempty"`
	Seed       string `json:"seed,omitempty"`
	// Deals are a pooled round's deal seeds, with Seed (View.Deals).
	Deals   []string            `json:"deals,omitempty"`
	Players []string            `json:"players"`
	Holes   []match.HoleRecords `json:"holes"`
}

// AddBotRequest is the body of POST /api/rooms/{code}/bots.
type AddBotRequest struct {
	// Token is the host's seat token (seat 0).
	Token string `json:"token"`
	// Level is random, greedy or search.
	Level string `json:"level"`
}

// AddBotResponse is its answer.
type AddBotResponse struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Level string `json:"level"`
}

// HoleReview is the answer to GET /api/rooms/{code}/holes/{hole}/analysis:
// one player's game of a hole reviewed by the solver (golf.Review: score,
// best, exact, undone, decisions).
type HoleReview struct {
	Hole int    `json:"hole"`
	Seat int    `json:"seat"`
	Name string `json:"name"`
	golf.Review
}
