package match

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// AppendJSON appends the view to b exactly as json.Marshal writes it, byte
// for byte, without reflection. A room's hub encodes a view for every seat
// on every event, and encoding/json spent most of its time in reflection
// and in re-checking the output of Settings.MarshalJSON; the views are
// then diffed as bytes (protocol/patch), so the bytes must not change.
// TestViewAppendJSON checks them against json.Marshal, and that every
// field of the structs written here is written (a field added to View or
// its parts must be added here too).
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	for i := range viewMembers {
		m := &viewMembers[i]
		if m.omit != nil && m.omit(v) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, m.key...)
		b = append(b, ':')
		b = m.val(v, b)
	}
	return append(b, '}')
}

// viewMember is a member of a view's encoding: its name (quoted), when it
// is left out (nil: never), and how its value is written. AppendJSON
// writes them in this order, and ViewCache encodes each on its own.
type viewMember struct {
	key  string
	omit func(v *View) bool
	val  func(v *View, b []byte) []byte
}

// The members of a view, in the order of View's fields.
const (
	mV = iota
	mCode
	mSettings
	mStatus
	mRound
	mHole
	mClock
	mCommitment
	mSeed
	mDeals
	mTournament
	mYou
	mSeats
	mBoard
	mBoards
	mProgress
	mStandings
	mRevealed
	mBest
	mDifficulty
	mDifficultyName
	nViewMembers
)

var viewMembers = [nViewMembers]viewMember{
	mV:        {`"v"`, nil, func(v *View, b []byte) []byte { return strconv.AppendInt(b, v.V, 10) }},
	mCode:     {`"code"`, nil, func(v *View, b []byte) []byte { return appendString(b, v.Code) }},
	mSettings: {`"settings"`, nil, func(v *View, b []byte) []byte { return v.Settings.appendJSON(b) }},
	mStatus:   {`"status"`, nil, func(v *View, b []byte) []byte { return appendString(b, string(v.Status)) }},
	mRound:    {`"round"`, nil, func(v *View, b []byte) []byte { return strconv.AppendInt(b, int64(v.Round), 10) }},
	mHole:     {`"hole"`, nil, func(v *View, b []byte) []byte { return strconv.AppendInt(b, int64(v.Hole), 10) }},
	mClock: {`"clock"`, func(v *View) bool { return v.HoleClock == nil }, func(v *View, b []byte) []byte {
		b = append(b, `{"started":`...)
		b = appendTime(b, v.HoleClock.Started)
		b = append(b, `,"deadline":`...)
		b = appendTime(b, v.HoleClock.Deadline)
		return append(b, '}')
	}},
	mCommitment: {`"commitment"`, func(v *View) bool { return v.Commitment == "" }, func(v *View, b []byte) []byte { return appendString(b, v.Commitment) }},
	mSeed:       {`"seed"`, func(v *View) bool { return v.Seed == "" }, func(v *View, b []byte) []byte { return appendString(b, v.Seed) }},
	mDeals:      {`"deals"`, func(v *View) bool { return len(v.Deals) == 0 }, func(v *View, b []byte) []byte { return appendStrings(b, v.Deals) }},
	mTournament: {`"tournament"`, func(v *View) bool { return v.Tournament == "" }, func(v *View, b []byte) []byte { return appendString(b, v.Tournament) }},
	mYou:        {`"you"`, nil, func(v *View, b []byte) []byte { return strconv.AppendInt(b, int64(v.You), 10) }},
	mSeats:      {`"seats"`, nil, func(v *View, b []byte) []byte { return appendList(b, v.Seats, (*SeatView).appendJSON) }},
	mBoard:      {`"board"`, func(v *View) bool { return v.Board == nil }, func(v *View, b []byte) []byte { return v.Board.appendJSON(b) }},
	mBoards: {`"boards"`, func(v *View) bool { return len(v.Boards) == 0 }, func(v *View, b []byte) []byte {
		return appendList(b, v.Boards, func(x **Board, b []byte) []byte { return appendBoard(b, *x) })
	}},
	mProgress:  {`"progress"`, nil, func(v *View, b []byte) []byte { return appendList(b, v.Progress, (*Finish).appendJSON) }},
	mStandings: {`"standings"`, nil, func(v *View, b []byte) []byte { return v.Standings.appendJSON(b) }},
	mRevealed:  {`"revealed"`, nil, func(v *View, b []byte) []byte { return appendInts(b, v.Revealed) }},
	mBest: {`"best"`, func(v *View) bool { return len(v.Best) == 0 }, func(v *View, b []byte) []byte {
		return appendList(b, v.Best, (*HoleBest).appendJSON)
	}},
	mDifficulty:     {`"difficulty"`, func(v *View) bool { return v.Difficulty == 0 }, func(v *View, b []byte) []byte { return strconv.AppendInt(b, int64(v.Difficulty), 10) }},
	mDifficultyName: {`"difficultyName"`, func(v *View) bool { return v.DifficultyName == "" }, func(v *View, b []byte) []byte { return appendString(b, v.DifficultyName) }},
}

// appendBoard appends a board of View.Boards (null for nil).
func appendBoard(b []byte, x *Board) []byte {
	if x == nil {
		return append(b, "null"...)
	}
	return x.appendJSON(b)
}

// appendJSON appends the settings as Settings.MarshalJSON, compacted (as
// json.Marshal writes a Marshaler's output), writes them.
func (s Settings) appendJSON(b []byte) []byte {
	b = append(b, `{"game":`...)
	b = appendString(b, string(s.Variant.Game))
	b = append(b, `,"options":`...)
	// Options.AppendJSON writes ", " and ": " between members, and its
	// keys and values (option names, kings rules, numbers, booleans)
	// never hold a space: dropping the spaces is json.Compact's result.
	start := len(b)
	b = s.Variant.Options.AppendJSON(b, s.Variant.Game)
	out := start
	for _, c := range b[start:] {
		if c != ' ' {
			b[out] = c
			out++
		}
	}
	b = b[:out]
	b = append(b, `,"holes":`...)
	b = strconv.AppendInt(b, int64(s.Holes), 10)
	b = append(b, `,"format":`...)
	b = appendString(b, string(s.Format))
	b = append(b, `,"seats":`...)
	b = strconv.AppendInt(b, int64(s.Seats), 10)
	b = append(b, `,"holeClock":`...)
	b = strconv.AppendInt(b, int64(s.HoleClock), 10)
	b = appendBoolField(b, `,"suddenDeath":`, s.SuddenDeath)
	b = appendBoolField(b, `,"skipUnclearable":`, s.SkipUnclearable)
	b = appendBoolField(b, `,"countback":`, s.Countback)
	b = appendBoolField(b, `,"public":`, s.Public)
	b = appendBoolField(b, `,"spectators":`, s.Spectators)
	b = append(b, `,"spectatorDelay":`...)
	b = strconv.AppendInt(b, int64(s.SpectatorDelay), 10)
	b = append(b, `,"grace":`...)
	b = strconv.AppendInt(b, int64(s.Grace), 10)
	b = appendBoolField(b, `,"autoStart":`, s.AutoStart)
	if s.Deal != 0 {
		b = append(b, `,"deal":`...)
		b = strconv.AppendInt(b, int64(s.Deal), 10)
	}
	if s.WinnableOnly {
		b = append(b, `,"winnableOnly":true`...)
	}
	if s.Difficulty != 0 {
		b = append(b, `,"difficulty":`...)
		b = strconv.AppendInt(b, int64(s.Difficulty), 10)
	}
	if s.Daily {
		b = append(b, `,"daily":true`...)
	}
	if s.Rated {
		b = append(b, `,"rated":true`...)
	}
	return append(b, '}')
}

func (s *SeatView) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, s.Name)
	b = appendBoolField(b, `,"ready":`, s.Ready)
	if s.Bot {
		b = append(b, `,"bot":true`...)
	}
	if s.Away {
		b = append(b, `,"away":true`...)
	}
	if !s.AwaySince.IsZero() {
		b = append(b, `,"awaySince":`...)
		b = appendTime(b, s.AwaySince)
	}
	if !s.GraceEnds.IsZero() {
		b = append(b, `,"graceEnds":`...)
		b = appendTime(b, s.GraceEnds)
	}
	return append(b, '}')
}

func (x *Board) appendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(x.Seat), 10)
	b = append(b, `,"hole":`...)
	b = strconv.AppendInt(b, int64(x.Hole), 10)
	b = append(b, `,"layout":`...)
	b = appendString(b, x.Layout)
	b = append(b, `,"piles":`...)
	b = appendList(b, x.Piles, func(p *[]string, b []byte) []byte { return appendStrings(b, *p) })
	b = append(b, `,"waste":`...)
	b = appendStrings(b, x.Waste)
	b = append(b, `,"stockLeft":`...)
	b = strconv.AppendInt(b, int64(x.StockLeft), 10)
	b = append(b, `,"redealsLeft":`...)
	b = strconv.AppendInt(b, int64(x.RedealsLeft), 10)
	b = append(b, `,"cardsLeft":`...)
	b = strconv.AppendInt(b, int64(x.CardsLeft), 10)
	b = append(b, `,"playable":`...)
	b = appendInts(b, x.Playable)
	b = appendBoolField(b, `,"canTurn":`, x.CanTurn)
	b = appendBoolField(b, `,"canRedeal":`, x.CanRedeal)
	b = appendBoolField(b, `,"canUndo":`, x.CanUndo)
	b = appendBoolField(b, `,"over":`, x.Over)
	b = appendBoolField(b, `,"cleared":`, x.Cleared)
	b = appendBoolField(b, `,"done":`, x.Done)
	if x.End != "" {
		b = append(b, `,"end":`...)
		b = appendString(b, x.End)
	}
	b = append(b, `,"score":`...)
	b = strconv.AppendInt(b, int64(x.Score), 10)
	b = append(b, `,"moves":`...)
	b = strconv.AppendInt(b, int64(x.Moves), 10)
	b = append(b, `,"run":`...)
	b = strconv.AppendInt(b, int64(x.Run), 10)
	if x.Wait != nil {
		b = append(b, `,"wait":{"seat":`...)
		b = strconv.AppendInt(b, int64(x.Wait.Seat), 10)
		if x.Wait.Card != 0 {
			b = append(b, `,"card":`...)
			b = strconv.AppendInt(b, int64(x.Wait.Card), 10)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func (f *Finish) appendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(f.Seat), 10)
	b = appendBoolField(b, `,"done":`, f.Done)
	if f.Score != nil {
		b = append(b, `,"score":`...)
		b = strconv.AppendInt(b, int64(*f.Score), 10)
	}
	if f.End != "" {
		b = append(b, `,"end":`...)
		b = appendString(b, f.End)
	}
	return append(b, '}')
}

func (s *Standings) appendJSON(b []byte) []byte {
	b = append(b, `{"format":`...)
	b = appendString(b, string(s.Format))
	b = append(b, `,"holes":`...)
	b = strconv.AppendInt(b, int64(s.Holes), 10)
	b = append(b, `,"par":`...)
	b = strconv.AppendInt(b, int64(s.Par), 10)
	b = append(b, `,"rows":`...)
	b = appendList(b, s.Rows, (*Row).appendJSON)
	if m := s.Match; m != nil {
		b = append(b, `,"match":{"leader":`...)
		b = strconv.AppendInt(b, int64(m.Leader), 10)
		b = append(b, `,"up":`...)
		b = strconv.AppendInt(b, int64(m.Up), 10)
		b = append(b, `,"thru":`...)
		b = strconv.AppendInt(b, int64(m.Thru), 10)
		b = append(b, `,"holesLeft":`...)
		b = strconv.AppendInt(b, int64(m.HolesLeft), 10)
		b = appendBoolField(b, `,"dormie":`, m.Dormie)
		b = appendBoolField(b, `,"decided":`, m.Decided)
		b = append(b, `,"winner":`...)
		b = strconv.AppendInt(b, int64(m.Winner), 10)
		if m.Result != "" {
			b = append(b, `,"result":`...)
			b = appendString(b, m.Result)
		}
		b = append(b, `,"text":`...)
		b = appendString(b, m.Text)
		if m.Extra != 0 {
			b = append(b, `,"extra":`...)
			b = strconv.AppendInt(b, int64(m.Extra), 10)
		}
		b = append(b, `,"holes":`...)
		b = appendInts(b, m.Holes)
		b = append(b, '}')
	}
	b = appendBoolField(b, `,"over":`, s.Over)
	return append(b, '}')
}

func (r *Row) appendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(r.Seat), 10)
	b = append(b, `,"name":`...)
	b = appendString(b, r.Name)
	b = append(b, `,"place":`...)
	b = strconv.AppendInt(b, int64(r.Place), 10)
	b = append(b, `,"placeText":`...)
	b = appendString(b, r.PlaceText)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"toPar":`...)
	b = strconv.AppendInt(b, int64(r.ToPar), 10)
	b = append(b, `,"toParText":`...)
	b = appendString(b, r.ToParText)
	b = append(b, `,"thru":`...)
	b = strconv.AppendInt(b, int64(r.Thru), 10)
	b = append(b, `,"scores":`...)
	b = appendIntPtrs(b, r.Scores)
	if len(r.VsBest) > 0 {
		b = append(b, `,"vsBest":`...)
		b = appendIntPtrs(b, r.VsBest)
	}
	if r.Held {
		b = append(b, `,"held":true`...)
	}
	return append(b, '}')
}

func (h *HoleBest) appendJSON(b []byte) []byte {
	b = append(b, `{"hole":`...)
	b = strconv.AppendInt(b, int64(h.Hole), 10)
	b = append(b, `,"best":`...)
	b = strconv.AppendInt(b, int64(h.Best), 10)
	b = appendBoolField(b, `,"exact":`, h.Exact)
	if h.Difficulty != 0 {
		b = append(b, `,"difficulty":`...)
		b = strconv.AppendInt(b, int64(h.Difficulty), 10)
	}
	if h.DifficultyName != "" {
		b = append(b, `,"difficultyName":`...)
		b = appendString(b, h.DifficultyName)
	}
	return append(b, '}')
}

func appendBoolField(b []byte, key string, v bool) []byte {
	b = append(b, key...)
	return strconv.AppendBool(b, v)
}

// appendString appends s as a JSON string the way encoding/json writes
// it: printable ASCII other than the quote, the backslash and the HTML
// characters <, > and & goes as it is; anything else (rare: names) is
// left to encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendList appends xs as a JSON array (null when nil), each element
// written by elem.
func appendList[T any](b []byte, xs []T, elem func(*T, []byte) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(&xs[i], b)
	}
	return append(b, ']')
}

func appendStrings(b []byte, ss []string) []byte {
	return appendList(b, ss, func(s *string, b []byte) []byte { return appendString(b, *s) })
}

func appendInts(b []byte, xs []int) []byte {
	return appendList(b, xs, func(x *int, b []byte) []byte { return strconv.AppendInt(b, int64(*x), 10) })
}

func appendIntPtrs(b []byte, xs []*int) []byte {
	return appendList(b, xs, func(x **int, b []byte) []byte {
		if *x == nil {
			return append(b, "null"...)
		}
		return strconv.AppendInt(b, int64(**x), 10)
	})
}

// appendTime appends t as time.Time.MarshalJSON writes it (RFC 3339 with
// nanoseconds, quoted). A time it refuses (a year outside 0-9999; never
// in a view) is written as null.
func appendTime(b []byte, t time.Time) []byte {
	if y := t.Year(); y < 0 || y > 9999 {
		j, err := json.Marshal(t)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, j...)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
