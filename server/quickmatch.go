package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/names"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// ticket is a player waiting for a quick match.
type ticket struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// seatPartner creates the room of a quick match with the partner who was
// waiting seated first, and sends them their seat through their inbox.
func (s *Server) seatPartner(ctx context.Context, r *http.Request, set match.Settings, partner ticket) (protocol.SeatGrant, error) {
	grant, err := s.create(ctx, set, partner.Name)
	if err != nil {
		return grant, err
	}
	grant.Link = s.link(r, grant.Code)
	pg, _ := json.Marshal(grant)
	if err := s.store.Notify(ctx, "quickmatch:"+partner.ID, pg); err != nil {
		return grant, err
	}
	return grant, nil
}

// quickMatch pairs the caller with the next person waiting for the same
// settings. It long-polls: 200 with a seat when paired, 204 when nobody
// came in time (call again).
func (s *Server) quickMatch(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, limitQuickMatch) {
		return
	}
	// The long poll outlasts the server's write timeout.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.opts.QuickMatchWait + 15*time.Second))
	var req protocol.QuickMatchRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	name, err := match.CleanName(req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	set := match.DefaultSettings()
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			s.fail(w, err)
			return
		}
	}
	if set.Rated {
		s.ratedQuickMatch(w, r, set) // rated.go
		return
	}
	set.AutoStart = true
	canon, _ := json.Marshal(set)
	sum := sha256.Sum256(canon)
	key := "quickmatch:" + hex.EncodeToString(sum[:8])
	me := ticket{ID: newID(), Name: name}
	mine, _ := json.Marshal(me)

	ctx := r.Context()
	inbox, err := s.store.Listen(ctx, "quickmatch:"+me.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	defer inbox.Close()
	partnerData, paired, err := s.store.Pair(ctx, key, string(mine))
	if err != nil {
		s.fail(w, err)
		return
	}
	if paired {
		var partner ticket
		if err := json.Unmarshal([]byte(partnerData), &partner); err != nil {
			s.fail(w, err)
			return
		}
		grant, err := s.seatPartner(ctx, r, set, partner)
		if err != nil {
			s.fail(w, err)
			return
		}
		if names.Confusable(name, partner.Name) {
			// Two people of the same name met: the second is told apart.
			name = string([]rune(name)[:min(len([]rune(name)), names.MaxLen-2)]) + " 2"
		}
		mineGrant, err := s.join(ctx, grant.Code, name, false)
		if err != nil {
			s.fail(w, err)
			return
		}
		mineGrant.Link = s.link(r, grant.Code)
		writeJSON(w, http.StatusOK, mineGrant)
		return
	}
	wait := func(d time.Duration) (protocol.SeatGrant, bool) { return awaitGrant(ctx, inbox.C(), d) }
	if g, ok := wait(s.opts.QuickMatchWait); ok {
		writeJSON(w, http.StatusOK, g)
		return
	}
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if still, err := s.store.Unpair(uctx, key, string(mine)); err == nil && !still {
		// Someone took our ticket just now: their grant is on its way.
		if g, ok := wait(5 * time.Second); ok {
			writeJSON(w, http.StatusOK, g)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// awaitGrant waits up to d for the seat grant a partner's request sends
// to this request's inbox (quick match and rated quick match).
func awaitGrant(ctx context.Context, inbox <-chan store.Entry, d time.Duration) (protocol.SeatGrant, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case e, ok := <-inbox:
		var g protocol.SeatGrant
		if ok && json.Unmarshal(e.Data, &g) == nil {
			return g, true
		}
	case <-t.C:
	case <-ctx.Done():
	}
	return protocol.SeatGrant{}, false
}
