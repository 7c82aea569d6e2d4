package protocol

import (
	"encoding/json"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/tourney"
)

// Tournament error codes.
const (
	ErrCodeTournamentNotFound = "tournament_not_found"
	ErrCodeEntryClosed        = "entry_closed"
	ErrCodeTournamentFull     = "tournament_full"
	ErrCodeAlreadyEntered     = "already_entered"
	ErrCodeNameTaken          = "name_taken"
	ErrCodeBadInvite          = "bad_invite"
	ErrCodeNotStarted         = "not_started"
	ErrCodeTournamentClosed   = "tournament_closed"
)

// TypeTournament is the one server message of the tournament WebSocket.
const TypeTournament = "tournament"

// CreateTournamentRequest is the body of POST /api/tournaments.
type CreateTournamentRequest struct {
	Settings json.RawMessage `json:"settings"`
	// Name, when given, also enters the host.
	Name string `json:"name,omitempty"`
}

// TournamentGrant answers creating or entering a tournament.
type TournamentGrant struct {
	ID   string `json:"id"`
	Link string `json:"link"`
	// Entrant is the entrant's number (-1 for a host who did not enter).
	Entrant int `json:"entrant"`
	// Token identifies the entrant (and is their seat token in the rooms
	// they play): keep it.
	Token string `json:"token,omitempty"`
	// HostToken and Invite are given to the creator only.
	HostToken string `json:"hostToken,omitempty"`
	Invite    string `json:"invite,omitempty"`
}

// JoinTournamentRequest is the body of POST /api/tournaments/{id}/join.
type JoinTournamentRequest struct {
	Name string `json:"name"`
	// Token, when given, is the entrant's own token (so one person keeps
	// one token); entering twice with it is already_entered.
	Token  string `json:"token,omitempty"`
	Invite string `json:"invite,omitempty"`
}

// TokenRequest is the body of start, close and play.
type TokenRequest struct {
	Token string `json:"token"`
}

// PlayGrant answers POST /api/tournaments/{id}/play: the room to play in,
// with the same token as the seat token.
type PlayGrant struct {
	Room string `json:"room"`
	Link string `json:"link"`
	Seat int    `json:"seat"`
	Next int    `json:"next"` // the next hole to play, 0 for none
}

// Leaderboard is a page of the stroke-play leaderboard.
type Leaderboard struct {
	V     int64         `json:"v"`
	Total int64         `json:"total"` // entrants on the board
	Page  int           `json:"page"`  // 1-based
	Size  int           `json:"size"`
	Rows  []tourney.Row `json:"rows"`
	// Around is the viewer's row and its neighbours, when asked for.
	Around []tourney.Row `json:"around,omitempty"`
	// You is the viewer's row (place 0 while not on the board).
	You *tourney.Row `json:"you,omitempty"`
}

// TournamentMessage is what the tournament WebSocket pushes, at most twice
// a second: the tournament view and the leaderboard page the watcher
// asked for.
type TournamentMessage struct {
	Type  string        `json:"type"`
	V     int64         `json:"v"`
	View  *tourney.View `json:"view,omitempty"`
	Board *Leaderboard  `json:"board,omitempty"`
	// Through is the time of the latest result the message includes.
	Through time.Time `json:"through,omitzero"`
	Code    string    `json:"code,omitempty"`
	Message string    `json:"message,omitempty"`
}

// Marshal encodes the message.
func (m TournamentMessage) Marshal() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// EntrantWatch is GET /api/tournaments/{id}/entrants/{n}: watching one
// player. The hole in play is shown as anyone other than the player may
// see it (match.Room.Shown): with f = 0 until the hole is safe (progress
// with the deal's counts, finished and score; no board, which would show
// the deal to entrants still to start it), whole after.
type EntrantWatch struct {
	Row tourney.Row `json:"row"`
	// Hole is the hole in play (0 before the first, or when finished).
	Hole     int             `json:"hole"`
	Progress *match.Progress `json:"progress,omitempty"`
	Board    *match.Board    `json:"board,omitempty"`
	Safe     []int           `json:"safe"`
}
