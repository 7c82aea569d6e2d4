// Package protocol defines the messages the server and its clients
// exchange over a WebSocket: JSON text frames, one message per frame, each
// with a "type". docs/protocol.md documents every message and error code
// with examples. The server and the Go client (package client) share these
// types, so they cannot drift apart.
package protocol

import (
	"encoding/json"
	"strconv"

	"golfsolitaire/match"
)

// Version is the newest protocol version, the one this package's types
// describe. A client's hello says the highest version it speaks; the server
// welcomes it with the highest version both speak (Negotiate), and refuses
// a client that speaks none of Versions with ErrCodeBadVersion, naming
// them. docs/protocol.md ("Versions") says what changes need a new
// version and how long an old one is served.
//
// Version 1 sent every event with the whole view; version 2 sends a patch
// of the view sent before (package patch) and leaves out what the frame
// already says (the event's v, the time of a live event).
const Version = 2

// Versions are the protocol versions the server speaks, oldest first.
var Versions = []int{2}

// Features are what welcome says this server does beyond its protocol
// version: additions a client may use when listed and must not expect
// otherwise. A feature is only ever added within a version, never
// changed; clients ignore names they do not know.
//   - "patch": event frames carry a patch of the view sent before (a
//     frame with no view on record carries the whole view).
//   - "resync": the resync command answers with a snapshot.
//   - "reactions": react and reaction frames.
var Features = []string{"patch", "resync", "reactions"}

// Negotiate returns the version to speak with a client whose hello says
// the highest version it speaks is highest: the highest of Versions not
// above it, or false when there is none.
func Negotiate(highest int) (int, bool) {
	best := 0
	for _, v := range Versions {
		if v <= highest && v > best {
			best = v
		}
	}
	return best, best > 0
}

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
	// TypeLeave gives up the player's seat, TypeKick (the host) removes
	// the seat in Seat: both before the first round starts only.
	TypeLeave = "leave"
	TypeKick  = "kick"
	// TypeReact sends a preset reaction (Reaction, one of Reactions) to
	// everyone in the room; nothing is stored.
	TypeReact = "react"
	// TypeResync asks for a snapshot: the client's view is not the base
	// of an event's patch (or the patch did not apply).
	TypeResync = "resync"
)

// Reactions are the preset reaction ids, in the order clients show them:
// "Good game", "Nice run!", "Well played", "Good luck" (translated by the
// client). There is no free text.
var Reactions = []string{"gg", "nice", "wp", "gl"}

// ValidReaction reports whether id is one of Reactions.
func ValidReaction(id string) bool {
	for _, r := range Reactions {
		if r == id {
			return true
		}
	}
	return false
}

// Server message types.
const (
	TypeWelcome  = "welcome"
	TypeSnapshot = "snapshot"
	TypeEvent    = "event"
	TypeAck      = "ack"
	TypeError    = "error"
	TypePong     = "pong"
	// TypeReaction is a player's reaction: Seat and Reaction.
	TypeReaction = "reaction"
)

// ClientMessage is any message a client sends; Type says which fields
// matter.
type ClientMessage struct {
	Type string `json:"type"`
	// hello: Protocol is the highest protocol version the client speaks.
	Protocol int    `json:"protocol,omitempty"`
	Room     string `json:"room,omitempty"`
	Token    string `json:"token,omitempty"` // seat token; empty to spectate
	Since    int64  `json:"since,omitempty"` // last version seen; 0 for a snapshot
	// Preview: a spectator's socket drawing a small preview of the room
	// (the home page's featured game), not counted among its watchers.
	Preview bool `json:"preview,omitempty"`
	// move, ready, start, stand, rematch: Seq numbers each command of the
	// connection's player, increasing. A move resent with the same Seq is
	// acknowledged as a duplicate and applied once; a move whose Seq is not
	// above the seat's last applied one and is not that resend is refused
	// with ErrCodeStaleSeq (continue above the welcome's LastSeq).
	Seq  int64  `json:"seq,omitempty"`
	Hole int    `json:"hole,omitempty"`
	Move string `json:"move,omitempty"` // "3", "s", "r", "u"
	// ready
	Ready *bool `json:"ready,omitempty"`
	// kick: the seat to remove
	Seat *int `json:"seat,omitempty"`
	// react: one of Reactions
	Reaction string `json:"reaction,omitempty"`
}

// ServerMessage is any message the server sends.
type ServerMessage struct {
	Type string `json:"type"`
	// V is the room version the message brings the client to.
	V int64 `json:"v,omitempty"`
	// welcome: the version chosen and the features of the server
	// (Features); error bad_version: the versions spoken (Versions).
	Protocol int      `json:"protocol,omitempty"`
	Features []string `json:"features,omitempty"`
	Versions []int    `json:"versions,omitempty"`
	Seat     *int     `json:"seat,omitempty"` // -1 for a spectator
	// LastSeq (welcome, players) is the highest seq applied for the seat:
	// a client that has lost its counter continues above it.
	LastSeq int64 `json:"lastSeq,omitempty"`
	// snapshot, event: a live event carries the view after it, whole
	// (View) or as a patch (package patch) of the view whose own V is
	// Base, the one the connection was sent last.
	// Base is left out (0) when it is V-1: see PatchBase.
	View  *match.View      `json:"view,omitempty"`
	Event *match.EventView `json:"event,omitempty"`
	Base  int64            `json:"base,omitempty"`
	Patch json.RawMessage  `json:"patch,omitempty"`
	// ack, error
	Seq       int64  `json:"seq,omitempty"`
	Duplicate bool   `json:"duplicate,omitempty"`
	Code      string `json:"code,omitempty"`
	Message   string `json:"message,omitempty"`
	// Move is the suggestion in the ack of a hint ("3", "s", "r"; empty
	// when the game is over).
	Move string `json:"move,omitempty"`
	// Reaction is the preset id of a reaction message (the sender in Seat).
	Reaction string `json:"reaction,omitempty"`
	// RetryAfter, in an error (try_again, solver_busy), is how many
	// seconds to wait before trying again.
	RetryAfter int `json:"retryAfter,omitempty"`
}

// Error codes of error messages (and of HTTP API errors).
const (
	ErrCodeBadMessage   = "bad_message"  // not one JSON object, a field of the wrong type, or an unknown field (ParseClientMessage)
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
	ErrCodeRateLimited  = "rate_limited" // over a per-client limit (HTTP 429 with Retry-After), or flooding a socket (then closed with 1008)
	ErrCodeInternal     = "internal"
	ErrCodeTooLarge     = "too_large" // a request body over the limit (HTTP 413)
	ErrCodeCrowded      = "crowded"   // the room has as many spectators as it takes
	ErrCodeLeft         = "left"      // the seat was given up (leave, removed by the host, not ready in time)
	ErrCodeTooFast      = "too_fast"  // a reaction sooner than the limit allows; nothing is sent
	// ErrCodeStaleSeq refuses a move whose seq is not above the seat's
	// last applied seq and is not the very same move resent (a lower seq
	// never applied, or an applied seq reused for another move).
	ErrCodeStaleSeq = "stale_seq"
	// ErrCodeTryAgain: the round could not start because the pool of
	// pre-rated deals for its settings (winnableOnly, difficulty) is being
	// filled; RetryAfter says when to try again.
	ErrCodeTryAgain = "try_again"
	// ErrCodeSolverBusy: the client already has its quota of solver jobs
	// (hints) in flight, or a hint waited its time (5 s) in the solver's
	// queue; RetryAfter says when to try again.
	ErrCodeSolverBusy = "solver_busy"
)

// PatchBase is the v of the view an event's patch applies to: Base, or
// V-1 when the frame leaves base out.
func (m ServerMessage) PatchBase() int64 {
	if m.Base != 0 {
		return m.Base
	}
	return m.V - 1
}

// Marshal encodes a server message.
func (m ServerMessage) Marshal() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		// Every field is a plain value; this cannot happen.
		panic(err)
	}
	return b
}

// AckFrame is ServerMessage{Type: TypeAck, Seq: seq, V: v}.Marshal()'s
// bytes, written without reflection: one goes with every move.
func AckFrame(seq, v int64) []byte {
	out := make([]byte, 0, 48)
	out = append(out, `{"type":"`+TypeAck+`"`...)
	if v != 0 {
		out = append(out, `,"v":`...)
		out = strconv.AppendInt(out, v, 10)
	}
	if seq != 0 {
		out = append(out, `,"seq":`...)
		out = strconv.AppendInt(out, seq, 10)
	}
	return append(out, '}')
}

// SnapshotFrame encodes a snapshot message around an encoded view.
func SnapshotFrame(v int64, view []byte) []byte {
	return frame(TypeSnapshot, v, 0, nil, "view", view)
}

// EventFrame encodes an event message around an encoded event and the
// whole view after it (view nil: none, as in catch-up events).
func EventFrame(v int64, event, view []byte) []byte {
	return frame(TypeEvent, v, 0, event, "view", view)
}

// PatchFrame encodes an event message around an encoded event and the
// patch that turns the view whose V is base into the view after it. The
// base is left out when it is v-1 (ServerMessage.PatchBase).
func PatchFrame(v, base int64, event, patch []byte) []byte {
	if base == v-1 {
		base = 0
	}
	return frame(TypeEvent, v, base, event, "patch", patch)
}

// frame writes a message from parts already encoded, as Marshal would
// write it, without encoding (and so re-scanning) them again.
func frame(typ string, v, base int64, event []byte, key string, val []byte) []byte {
	out := make([]byte, 0, len(event)+len(val)+64)
	out = append(out, `{"type":"`...)
	out = append(out, typ...)
	out = append(out, '"')
	if v != 0 {
		out = append(out, `,"v":`...)
		out = strconv.AppendInt(out, v, 10)
	}
	if base != 0 {
		out = append(out, `,"base":`...)
		out = strconv.AppendInt(out, base, 10)
	}
	if event != nil {
		out = append(out, `,"event":`...)
		out = append(out, event...)
	}
	if val != nil {
		out = append(out, `,"`...)
		out = append(out, key...)
		out = append(out, `":`...)
		out = append(out, val...)
	}
	return append(out, '}')
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
