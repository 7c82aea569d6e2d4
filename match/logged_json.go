package match

import (
	"encoding/hex"
	"strconv"

	"golfsolitaire/golf"
)

// AppendJSON appends the logged event to b exactly as json.Marshal writes
// it, byte for byte, without reflection: the event's fields (Event is
// embedded, so they come first), then the notices, the card, its origin
// and whether the move was public. A room's hub stores every event it
// applies in this form, and encoding/json spent its time in reflection and
// in re-checking the output of Settings.MarshalJSON and the cards' and
// moves' MarshalText. TestViewAppendJSON checks the bytes against
// json.Marshal for every event of its rounds, and TestLoggedAppendJSONFields
// that every field of Event, Logged and Notice is written (a field added
// to them must be added here too).
//
// A value json.Marshal refuses (a card that is neither a card nor NoCard, a
// time outside years 0-9999; never in a room's log) is written as null.
func (l *Logged) AppendJSON(b []byte) []byte {
	b = l.Event.appendFields(b)
	if len(l.Notices) > 0 {
		b = append(b, `,"notices":`...)
		b = appendList(b, l.Notices, (*Notice).appendJSON)
	}
	if l.Card != golf.NoCard {
		b = append(b, `,"card":`...)
		b = appendCard(b, l.Card)
	}
	b = append(b, `,"origin":`...)
	b = strconv.AppendInt(b, int64(l.Origin), 10)
	if l.Public {
		b = append(b, `,"public":true`...)
	}
	return append(b, '}')
}

// appendFields appends the event as json.Marshal writes it, but for the
// closing brace: Logged goes on with its own fields.
func (e *Event) appendFields(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, string(e.Kind))
	b = append(b, `,"at":`...)
	b = appendTime(b, e.At)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = appendStringField(b, `,"code":`, e.Code)
	if e.Settings != nil {
		b = append(b, `,"settings":`...)
		b = e.Settings.appendJSON(b)
	}
	b = appendStringField(b, `,"tournament":`, e.Tournament)
	b = appendStringField(b, `,"name":`, e.Name)
	b = appendStringField(b, `,"token":`, e.Token)
	if e.Bot {
		b = append(b, `,"bot":true`...)
	}
	b = appendIntField(b, `,"account":`, e.Account)
	b = appendIntField(b, `,"readyWithin":`, int64(e.ReadyWithin))
	if e.Ready {
		b = append(b, `,"ready":true`...)
	}
	if e.Seed != nil {
		b = append(b, `,"seed":`...)
		b = appendSeed(b, e.Seed)
	}
	if len(e.Deals) > 0 {
		b = append(b, `,"deals":`...)
		b = appendList(b, e.Deals, func(s *golf.Seed, b []byte) []byte { return appendSeed(b, s) })
	}
	if len(e.Replaced) > 0 {
		b = append(b, `,"replaced":`...)
		b = appendInts(b, e.Replaced)
	}
	b = appendIntField(b, `,"hole":`, int64(e.Hole))
	if e.Move != (golf.Move{}) {
		b = append(b, `,"move":`...)
		b = appendMove(b, e.Move)
	}
	b = appendIntField(b, `,"seq":`, e.Seq)
	if e.Best != nil {
		b = append(b, `,"best":`...)
		b = strconv.AppendInt(b, int64(*e.Best), 10)
	}
	if e.BestExact {
		b = append(b, `,"bestExact":true`...)
	}
	if len(e.BestLine) > 0 {
		b = append(b, `,"bestLine":`...)
		b = appendList(b, e.BestLine, func(m *golf.Move, b []byte) []byte { return appendMove(b, *m) })
	}
	b = appendIntField(b, `,"difficulty":`, int64(e.Difficulty))
	b = appendStringField(b, `,"conn":`, e.Conn)
	b = appendIntField(b, `,"target":`, int64(e.Target))
	if e.Held {
		b = append(b, `,"held":true`...)
	}
	return b
}

func (n *Notice) appendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, string(n.Kind))
	b = appendIntField(b, `,"seat":`, int64(n.Seat))
	b = appendIntField(b, `,"hole":`, int64(n.Hole))
	b = appendIntField(b, `,"score":`, int64(n.Score))
	b = appendStringField(b, `,"end":`, n.End)
	return append(b, '}')
}

// AppendJSON appends the event view to b exactly as json.Marshal writes
// it, byte for byte, without reflection (V is not written: json:"-"). A
// room's hub encodes it for every viewer seat on every event, twice when
// some connections get a patch (whose event leaves At out).
func (e *EventView) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, string(e.Kind))
	b = appendIntField(b, `,"at":`, e.At)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = appendIntField(b, `,"hole":`, int64(e.Hole))
	b = appendStringField(b, `,"move":`, e.Move)
	b = appendStringField(b, `,"card":`, e.Card)
	b = appendStringField(b, `,"name":`, e.Name)
	if e.Ready {
		b = append(b, `,"ready":true`...)
	}
	if len(e.Notices) > 0 {
		b = append(b, `,"notices":`...)
		b = appendList(b, e.Notices, (*Notice).appendJSON)
	}
	return append(b, '}')
}

// appendStringField appends an omitempty string member: key (with its
// leading comma and colon) and s, unless s is empty.
func appendStringField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, key...)
	return appendString(b, s)
}

// appendIntField appends an omitempty integer member: key (with its
// leading comma and colon) and n, unless n is zero.
func appendIntField(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	b = append(b, key...)
	return strconv.AppendInt(b, n, 10)
}

// appendSeed appends a seed as its MarshalText writes it (hex digits),
// quoted.
func appendSeed(b []byte, s *golf.Seed) []byte {
	b = append(b, '"')
	b = hex.AppendEncode(b, s[:])
	return append(b, '"')
}

// appendMove appends a move as its MarshalText writes it (the record
// form: a pile number, or "s", "r", "u", "?"), quoted.
func appendMove(b []byte, m golf.Move) []byte {
	b = append(b, '"')
	if m.Action == golf.Play {
		b = strconv.AppendUint(b, uint64(m.Pile), 10)
	} else {
		b = append(b, m.String()...)
	}
	return append(b, '"')
}

// appendCard appends a card as its MarshalText writes it (its code),
// quoted, or null for what MarshalText refuses (not a card).
func appendCard(b []byte, c golf.Card) []byte {
	if !c.Valid() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, c.String()...)
	return append(b, '"')
}
