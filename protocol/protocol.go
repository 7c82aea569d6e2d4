// Package protocol defines the messages the server and its clients
// exchange over a WebSocket: JSON text frames, one message per frame, each
// with a "type". docs/protocol.md documents every message and error code
// with examples. The server and the Go client (package client) share these
// types, so they cannot drift apart.
package protocol

import (
	"encoding/json"

	"golfsolitaire/match"
)

// Version is the protocol version. A client says which version it speaks
// in its hello; the server refuses others with ErrCodeBadVersion.
const Version = 1

// MaxMessage is the largest frame a client may send, in bytes. Larger
// frames close the connection with status 1009 (message too big).
const MaxMessage = 4096

// Client message types.
const (
	TypeHello   = "hello"
	TypeMove    = "move"
	TypeReady   = "ready"
	TypeStart   = "start"
	TypeStand   = "stand"
	TypeRematch = "rematch"
	TypePing    = "ping"
	// TypeHint asks for a suggested move (solo practice only); the ack
	// carries it in Move.
	TypeHint = "hint"
)

// Server message types.
const (
	TypeWelcome  = "welcome"
	TypeSnapshot = "snapshot"
	TypeEvent    = "event"
	TypeAck      = "ack"
	TypeError    = "error"
	TypePong     = "pong"
)

// ClientMessage is any message a client sends; Type says which fields
// matter.
type ClientMessage struct {
	Type string `json:"type"`
	// hello
	Protocol int    `json:"protocol,omitempty"`
	Room     string `json:"room,omitempty"`
	Token    string `json:"token,omitempty"` // seat token; empty to spectate
	Since    int64  `json:"since,omitempty"` // last version seen; 0 for a snapshot
	// move, ready, start, stand, rematch: Seq numbers each command of the
	// connection's player, increasing; a repeated Seq gets the same answer
	// and is applied once.
	Seq  int64  `json:"seq,omitempty"`
	Hole int    `json:"hole,omitempty"`
	Move string `json:"move,omitempty"` // "3", "s", "r", "u"
	// ready
	Ready *bool `json:"ready,omitempty"`
}

// ServerMessage is any message the server sends.
type ServerMessage struct {
	Type string `json:"type"`
	// V is the room version the message brings the client to.
	V int64 `json:"v,omitempty"`
	// welcome
	Protocol int  `json:"protocol,omitempty"`
	Seat     *int `json:"seat,omitempty"` // -1 for a spectator
	// snapshot, event (live events carry the view after them)
	View  *match.View      `json:"view,omitempty"`
	Event *match.EventView `json:"event,omitempty"`
	// ack, error
	Seq       int64  `json:"seq,omitempty"`
	Duplicate bool   `json:"duplicate,omitempty"`
	Code      string `json:"code,omitempty"`
	Message   string `json:"message,omitempty"`
	// Move is the suggestion in the ack of a hint ("3", "s", "r"; empty
	// when the game is over).
	Move string `json:"move,omitempty"`
}

// Error codes of error messages (and of HTTP API errors).
const (
	ErrCodeBadMessage   = "bad_message"  // not JSON, or fields of the wrong type
	ErrCodeUnknownType  = "unknown_type" // a type the server does not know
	ErrCodeBadVersion   = "bad_version"  // a protocol version the server does not speak
	ErrCodeHelloFirst   = "hello_first"  // a command before hello, or a second hello
	ErrCodeRoomNotFound = "room_not_found"
	ErrCodeBadToken     = "bad_token"     // a seat token this room does not know
	ErrCodeSpectator    = "spectator"     // spectators cannot play
	ErrCodeNoSpectators = "no_spectators" // the room does not allow spectators
	ErrCodeNoHints      = "no_hints"      // hints are for solo practice only
	ErrCodeIllegalMove  = "illegal_move"  // the engine refused the move; message says why
	ErrCodeBadMove      = "bad_move"      // a move that does not parse
	ErrCodeWrongHole    = "wrong_hole"
	ErrCodeHoleDone     = "hole_done"
	ErrCodeNotPlaying   = "not_playing"
	ErrCodeNotWaiting   = "not_waiting"
	ErrCodeNotHost      = "not_host"
	ErrCodeNotReady     = "not_ready"
	ErrCodeNotFinished  = "not_finished"
	ErrCodeRoomFull     = "room_full"
	ErrCodeNoChange     = "no_change"
	ErrCodeInvalid      = "invalid"      // invalid settings or name
	ErrCodeUnavailable  = "unavailable"  // the store cannot be reached; try again
	ErrCodeRateLimited  = "rate_limited" // sent just before closing with 1008
	ErrCodeInternal     = "internal"
)

// Marshal encodes a server message.
func (m ServerMessage) Marshal() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		// Every field is a plain value; this cannot happen.
		panic(err)
	}
	return b
}

// CreateRoomRequest is the body of POST /api/rooms.
type CreateRoomRequest struct {
	Settings json.RawMessage `json:"settings"`
	// Name, when given, seats the creator (seat 0, the host).
	Name string `json:"name,omitempty"`
}

// SeatGrant is what a player gets on taking a seat: keep the token to play
// and to come back.
type SeatGrant struct {
	Code  string `json:"code"`
	Link  string `json:"link"`
	Seat  int    `json:"seat"`
	Token string `json:"token,omitempty"`
}

// JoinRequest is the body of POST /api/rooms/{code}/join and of POST
// /api/quickmatch.
type JoinRequest struct {
	Name string `json:"name"`
}

// APIError is the body of every HTTP error response.
type APIError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// QuickMatchRequest is the body of POST /api/quickmatch: pair me with the
// next person waiting for the same settings (default: strict Golf, nine
// holes, match play).
type QuickMatchRequest struct {
	Name     string          `json:"name"`
	Settings json.RawMessage `json:"settings,omitempty"`
}
