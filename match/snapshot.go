package match

import (
	"encoding/json"
	"fmt"
)

// Encode returns the room's snapshot for the store.
func (r *Room) Encode() ([]byte, error) { return json.Marshal(r) }

// DecodeRoom reads a snapshot written by Encode.
func DecodeRoom(b []byte) (*Room, error) {
	var r Room
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("match: decoding a room snapshot: %w", err)
	}
	return &r, nil
}

// DecodeLogged reads a stored event.
func DecodeLogged(b []byte) (Logged, error) {
	var l Logged
	if err := json.Unmarshal(b, &l); err != nil {
		return Logged{}, fmt.Errorf("match: decoding an event: %w", err)
	}
	return l, nil
}
