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
