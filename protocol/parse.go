package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// fieldWords says, for each field of ClientMessage, what it must be: the
// words a client gets when a field has the wrong type.
var fieldWords = map[string]string{
	"type":     "type must be a string",
	"protocol": "protocol must be a whole number",
	"room":     "room must be a string (the room code)",
	"token":    "token must be a string",
	"since":    "since must be a whole number (the last version seen)",
	"seq":      "seq must be a whole number",
	"hole":     "hole must be a whole number",
	"move":     `move must be a string ("3", "s", "r" or "u")`,
	"ready":    "ready must be true or false",
	"seat":     "seat must be a whole number (the seat to remove)",
}

// ParseClientMessage decodes one frame from a client: a single JSON object
// whose fields are those of ClientMessage, each of its type. A command's
// unknown fields are refused (a command always acts for the connection's
// own seat, so a field such as "seat" would be misunderstood); a hello's
// are ignored, so that a client of a newer version can say more in it to
// a server that does not know what (docs/protocol.md "Versions"). The
// error says in words what is wrong, never in Go's terms.
func ParseClientMessage(b []byte) (ClientMessage, error) {
	if m, ok := parseMove(b); ok {
		return m, nil
	}
	m, err := decodeClientMessage(b, true)
	if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
		// Only a hello may carry fields this server does not know.
		h, herr := decodeClientMessage(b, false)
		switch {
		case herr != nil:
			err = herr // not one object at all
		case h.Type == TypeHello:
			h.Seat = nil
			return h, nil
		}
	}
	if err != nil {
		return ClientMessage{}, errors.New(describeJSONError(err))
	}
	if m.Type == TypeHello {
		// A hello names no seat: the token says which.
		m.Seat = nil
	}
	// "seat" names the seat a host removes; on any other command it would
	// be misread as acting for another seat, so it is refused there.
	if m.Seat != nil && m.Type != TypeKick {
		return ClientMessage{}, errors.New(`unknown field "seat": only kick names a seat (a command always acts for the connection's own seat)`)
	}
	return m, nil
}

// decodeClientMessage decodes exactly one JSON object, refusing unknown
// fields when strict.
func decodeClientMessage(b []byte, strict bool) (ClientMessage, error) {
	var m ClientMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(&m); err != nil {
		return ClientMessage{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return ClientMessage{}, errOneObject
	}
	return m, nil
}

var errOneObject = errors.New("one JSON object a frame, with nothing after it")

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return "a message must be a JSON object"
		}
		field := te.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		if w, ok := fieldWords[field]; ok {
			return w
		}
		return fmt.Sprintf("field %q has the wrong type", field)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON (at byte %d)", se.Offset)
	case errors.Is(err, errOneObject):
		return err.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "not valid JSON (the message ends too early)"
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Sprintf("unknown field %s: a message has only the fields its type documents (a command always acts for the connection's own seat)", name)
	}
	return "not a valid message"
}

// parseMove reads a move as clients write it (json.Marshal of a
// ClientMessage: {"type":"move","seq":1,"hole":1,"move":"3"}, each of seq,
// hole and move optional, in that order, nothing else), without a
// decoder: one comes for every move. Anything else (other spacing or
// order, escapes, signs, leading zeros, large numbers) is left to the
// decoder (ok false), so the answer is always the decoder's.
func parseMove(b []byte) (m ClientMessage, ok bool) {
	const head = `{"type":"` + TypeMove + `"`
	if len(b) < len(head)+1 || string(b[:len(head)]) != head || b[len(b)-1] != '}' {
		return m, false
	}
	b = b[len(head) : len(b)-1]
	m.Type = TypeMove
	if rest, ok := cutPrefix(b, `,"seq":`); ok {
		var n int64
		if n, b, ok = leadingInt(rest, 18); !ok {
			return m, false
		}
		m.Seq = n
	}
	if rest, ok := cutPrefix(b, `,"hole":`); ok {
		var n int64
		if n, b, ok = leadingInt(rest, 9); !ok {
			return m, false
		}
		m.Hole = int(n)
	}
	if rest, ok := cutPrefix(b, `,"move":"`); ok {
		i := 0
		for i < len(rest) && rest[i] >= 0x20 && rest[i] < 0x7f && rest[i] != '"' && rest[i] != '\\' {
			i++
		}
		if i == len(rest) || rest[i] != '"' {
			return m, false
		}
		m.Move, b = string(rest[:i]), rest[i+1:]
	}
	return m, len(b) == 0
}

func cutPrefix(b []byte, prefix string) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return b, false
	}
	return b[len(prefix):], true
}

// leadingInt reads a JSON integer of at most digits digits (18 at most:
// no int64 overflows) without a sign or a leading zero (or a lone 0) at
// the start of b. Clients' seqs start at the time in microseconds: 16
// digits.
func leadingInt(b []byte, digits int) (n int64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i <= digits && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i == 0 || i > digits || (i > 1 && b[0] == '0') {
		return 0, b, false
	}
	return n, b[i:], true
}
