package match

import (
	"slices"
	"strconv"

	"golfsolitaire/golf"
	"golfsolitaire/protocol/patch"
)

// ViewCache builds the views of a room's viewers (View) as patch.Docs
// whose parts are encoded once and shared: what every viewer sees alike
// (standings, seats, progress, ...) once per version, each settled board
// once for every viewer shown it, a player's own board only when its game
// changed, and every part that did not change since the version before
// kept as the same patch.Value, so that a patch.Differ knows it unchanged
// without comparing. A Doc's encoding is View.AppendJSON's, byte for byte.
// It is for one goroutine (a room's hub); the zero value is ready.
type ViewCache struct {
	room    *Room
	version int64
	// shared holds the members alike for every viewer at version (nil:
	// left out, or a viewer's own: you, board, boards); prev those of the
	// version before, reused when unchanged.
	shared [nViewMembers]*patch.Value
	prev   [nViewMembers]*patch.Value
	you    map[int]*patch.Value
	// boards are the encoded boards of others, by the board shown (Shown
	// gives every viewer of an event the same *Board), and by encoding;
	// those of this version and the one before.
	boards  recent[*Board, *patch.Value]
	encoded recent[string, *patch.Value]
	own     map[int]*ownBoard
	// scratch is the board a player's own is drawn into, before it is
	// encoded (nothing keeps it).
	scratch Board
	// sv is the shared members' view of version, made into the arrays
	// of the one before (nothing keeps it).
	sv  View
	buf []byte
	// stKey is what the standings of version were computed from
	// (standingsKey): while it is the same, so are they, and they are
	// neither computed nor encoded again.
	stKey, stPrev []byte
}

// ownBoard is a player's own board as encoded last, with what it was
// drawn from.
type ownBoard struct {
	hole  *Hole
	game  *Game
	moves []golf.Move
	done  bool
	end   string
	val   *patch.Value
}

// ViewMembers is the most members a view's Doc has.
const ViewMembers = nViewMembers

// Doc returns the view of seat (a seat or SpectatorSeat) of r now, as a
// Doc.
func (c *ViewCache) Doc(r *Room, seat int) patch.Doc {
	return c.AppendDoc(make(patch.Doc, 0, nViewMembers), r, seat)
}

// AppendDoc is Doc appended to doc (an array of ViewMembers members holds
// any view's).
func (c *ViewCache) AppendDoc(doc patch.Doc, r *Room, seat int) patch.Doc {
	c.update(r)
	for i := range viewMembers {
		var val *patch.Value
		switch i {
		case mYou:
			val = c.youOf(seat)
		case mBoard:
			val = c.ownOf(r, seat)
		case mBoards:
			val = c.othersOf(r, seat)
		default:
			val = c.shared[i]
		}
		if val != nil {
			doc = append(doc, patch.Member{Key: viewMembers[i].key, Val: val})
		}
	}
	return doc
}

// update encodes the shared members for r's version, once.
func (c *ViewCache) update(r *Room) {
	if c.room == r && c.version == r.Version && c.shared[mV] != nil {
		return
	}
	if c.room != r {
		// Another room (reloaded): nothing of the old one is reused.
		*c = ViewCache{}
	}
	c.room, c.version = r, r.Version
	c.boards.at(r.Version)
	c.encoded.at(r.Version)
	c.prev, c.shared = c.shared, [nViewMembers]*patch.Value{}
	c.stPrev, c.stKey = c.stKey, standingsKey(c.stPrev[:0], r)
	sameStandings := c.prev[mStandings] != nil && string(c.stKey) == string(c.stPrev)
	var st Standings
	if !sameStandings {
		st = r.Standings()
	}
	v := &c.sv
	r.sharedViewInto(v, st)
	for i := range viewMembers {
		if i == mYou || i == mBoard || i == mBoards {
			continue
		}
		if i == mStandings && sameStandings {
			c.shared[i] = c.prev[i]
			continue
		}
		m := &viewMembers[i]
		if m.omit != nil && m.omit(v) {
			continue
		}
		c.buf = m.val(v, c.buf[:0])
		if p := c.prev[i]; p != nil && p.Is(c.buf) {
			c.shared[i] = p
			continue
		}
		c.shared[i] = patch.Raw(slices.Clone(c.buf))
	}
}

// standingsKey appends all that r's standings are computed from
// (standings: the settings' format, holes and tie rules, each seat's name
// and hold, and each hole's number, end, best and games' ends and scores).
func standingsKey(b []byte, r *Room) []byte {
	set := &r.Settings
	b = append(b, set.Format...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(set.Holes), 10)
	b = strconv.AppendInt(b, int64(set.Par()), 10)
	b = strconv.AppendBool(b, set.Countback)
	b = strconv.AppendBool(b, set.SuddenDeath)
	for _, s := range r.Seats {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(len(s.Name)), 10)
		b = append(b, ':')
		b = append(b, s.Name...)
		b = strconv.AppendBool(b, s.Held)
	}
	for _, h := range r.Holes {
		b = append(b, '#')
		b = strconv.AppendInt(b, int64(h.Number), 10)
		b = strconv.AppendBool(b, h.Done)
		if h.Best != nil {
			b = append(b, 'b')
			b = strconv.AppendInt(b, int64(*h.Best), 10)
		}
		for _, g := range h.Games {
			b = append(b, ',')
			if g.Done {
				b = strconv.AppendInt(b, int64(g.Score), 10)
			}
		}
	}
	return b
}

func (c *ViewCache) youOf(seat int) *patch.Value {
	if v, ok := c.you[seat]; ok {
		return v
	}
	if c.you == nil {
		c.you = map[int]*patch.Value{}
	}
	v := patch.Raw(strconv.AppendInt(nil, int64(seat), 10))
	c.you[seat] = v
	return v
}

// ownOf is seat's own board (nil for a spectator or before play), drawn
// again only when its game changed.
func (c *ViewCache) ownOf(r *Room, seat int) *patch.Value {
	h := r.CurrentHole()
	if h == nil || seat < 0 || seat >= len(h.Games) {
		return nil
	}
	g := h.Games[seat]
	if o := c.own[seat]; o != nil && o.hole == h && o.game == g && o.done == g.Done && o.end == g.End && slices.Equal(o.moves, g.Moves) {
		return o.val
	}
	c.buf = r.boardInto(&c.scratch, h, seat).appendJSON(c.buf[:0])
	val := patch.Raw(slices.Clone(c.buf))
	if c.own == nil {
		c.own = map[int]*ownBoard{}
	}
	c.own[seat] = &ownBoard{hole: h, game: g, moves: slices.Clone(g.Moves), done: g.Done, end: g.End, val: val}
	return val
}

// othersOf is the boards member of seat's view: the settled boards of the
// other seats (every seat for a spectator), nil when it has none.
func (c *ViewCache) othersOf(r *Room, seat int) *patch.Value {
	h := r.CurrentHole()
	if h == nil {
		return nil
	}
	own := seat >= 0 && seat < len(h.Games)
	if !own && !(seat == SpectatorSeat && r.Settings.Spectators) {
		return nil
	}
	elems := make([]*patch.Value, 0, len(h.Games))
	for i := range h.Games {
		if own && i == seat {
			continue
		}
		elems = append(elems, c.boardOf(r.Others(h, i, seat).Board))
	}
	if len(elems) == 0 {
		return nil
	}
	return patch.Array(elems)
}

// boardOf encodes a board of others once (by pointer, and by encoding:
// rooms with undo draw settled boards anew for every view).
func (c *ViewCache) boardOf(b *Board) *patch.Value {
	if v, ok := c.boards.get(b); ok {
		return v
	}
	c.buf = appendBoard(c.buf[:0], b)
	// (indexed here, not through get, so that the lookup does not
	// allocate the key)
	v, ok := c.encoded.cur[string(c.buf)]
	if !ok {
		if v, ok = c.encoded.prev[string(c.buf)]; ok {
			c.encoded.put(string(c.buf), v)
		}
	}
	if !ok {
		v = patch.Raw(slices.Clone(c.buf))
		c.encoded.put(string(c.buf), v)
	}
	c.boards.put(b, v)
	return v
}
