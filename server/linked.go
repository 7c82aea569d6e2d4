package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// One person, one seat where it counts (docs/protocol.md "Linked
// accounts"): a rated room, a rated quick match, a rated challenge, the
// daily challenge and accounts-only tournaments refuse an account that
// shares a recent address or device with an account already seated or
// entered. Every rated seat or entry records the request's address and
// device (the golf_guest cookie) for its account, hashed; two accounts
// seen with one of them within linkWindow are linked. The links are kept
// (accounts.Store) and shown to moderators with the fair-play flags.
//
// New accounts serve a probation before rated play (Options.RatedProbation
// and ProbationRounds).

// linkWindow is how far back a shared address or device links accounts.
const linkWindow = 30 * 24 * time.Hour

var (
	errLinked = errors.New("server: an account that shares your address or device is already seated or entered here; one person plays one seat of a rated game. Play a casual room instead")
	// errProbation refuses a new account's rated play.
	errProbation = errors.New("server: new accounts play rated games after a probation")
)

// sightingValue is what the store keeps of an address or a device: a
// hash, never the address or the cookie itself.
func sightingValue(kind, v string) string {
	sum := sha256.Sum256([]byte("golf " + kind + "\x00" + v))
	return hex.EncodeToString(sum[:16])
}

// see records the request's address and device for the account.
func (s *Server) see(r *http.Request, a accounts.Account) error {
	ctx, now := r.Context(), s.now()
	if err := s.acct.store.Seen(ctx, a.ID, accounts.SeenAddress, sightingValue("address", clientOf(r, s.opts.Limits.TrustedHeader)), now); err != nil {
		return err
	}
	if c, err := r.Cookie(guestCookie); err == nil && c.Value != "" {
		return s.acct.store.Seen(ctx, a.ID, accounts.SeenDevice, sightingValue("device", c.Value), now)
	}
	return nil
}

// ratedCheck is what every rated seat or entry of an account goes
// through: the probation, then its address and device are recorded.
func (s *Server) ratedCheck(r *http.Request, a accounts.Account) error {
	if err := nameNoteCheck(a); err != nil {
		return err
	}
	if p := s.opts.RatedProbation; p > 0 {
		rounds := cmpOr(s.opts.ProbationRounds, 3)
		if age := s.now().Sub(a.Created); age < p && a.CasualRounds < rounds {
			return fmt.Errorf("%w: new accounts play rated games after %d finished casual rounds, or %s after sign-up; %s has finished %d. Play a casual room first",
				errProbation, rounds, p, a.Name, a.CasualRounds)
		}
	}
	return s.see(r, a)
}

// flagLinks are the flagged accounts' links, ever, by player id: for
// moderators, beside the evidence.
func (s *Server) flagLinks(ctx context.Context, flags []fairplay.Flag) (map[string][]protocol.AccountLink, error) {
	out := map[string][]protocol.AccountLink{}
	for _, f := range flags {
		n, ok := strings.CutPrefix(f.Player, "account:")
		if !ok {
			continue
		}
		id, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			continue
		}
		links, err := s.acct.store.Links(ctx, accounts.ID(id), time.Time{})
		if err != nil {
			return nil, err
		}
		for _, l := range links {
			out[f.Player] = append(out[f.Player], protocol.AccountLink{Name: l.Name, Kind: l.Kind, At: l.At})
		}
	}
	return out, nil
}

// linkSet is the accounts linked to one: by id, and by name key (rated
// seats and accounts-only entries are named by their account).
type linkSet struct {
	ids  map[int64]bool
	keys map[string]bool
}

func (l *linkSet) has(account int64, name string) bool {
	if l == nil {
		return false
	}
	if account != 0 && l.ids[account] {
		return true
	}
	key, err := accounts.Key(name)
	return err == nil && l.keys[key]
}

// linksOf returns the accounts linked to id recently.
func (s *Server) linksOf(ctx context.Context, id accounts.ID) (*linkSet, error) {
	links, err := s.acct.store.Links(ctx, id, s.now().Add(-linkWindow))
	if err != nil {
		return nil, err
	}
	l := &linkSet{ids: map[int64]bool{}, keys: map[string]bool{}}
	for _, k := range links {
		l.ids[int64(k.Account)] = true
		if key, err := accounts.Key(k.Name); err == nil {
			l.keys[key] = true
		}
	}
	return l, nil
}

type linksKey struct{}

// withLinks puts the logged-in account's links in ctx for the join or
// entry closures (linkedSeat, linkedEntry), unless links are allowed.
func (s *Server) withLinks(ctx context.Context, id int64) context.Context {
	if s.opts.AllowLinkedAccounts || id == 0 {
		return ctx
	}
	l, err := s.linksOf(ctx, accounts.ID(id))
	if err != nil {
		s.log.Warn("linked accounts not checked", "account", id, "err", err)
		return ctx
	}
	return context.WithValue(ctx, linksKey{}, l)
}

// linkedSeat refuses a rated room's seat to an account linked to one
// seated already. It runs in the join's change, so two linked accounts
// joining at once cannot both get in.
func linkedSeat(ctx context.Context, r *match.Room) error {
	l, _ := ctx.Value(linksKey{}).(*linkSet)
	if l == nil || !r.Settings.Rated {
		return nil
	}
	for _, seat := range r.Seats {
		if l.has(seat.Account, seat.Name) {
			return errLinked
		}
	}
	return nil
}

// linkedEntry is linkedSeat for an accounts-only tournament's entrants.
func linkedEntry(ctx context.Context, t *tourney.Tournament) error {
	l, _ := ctx.Value(linksKey{}).(*linkSet)
	if l == nil || !t.Settings.Accounts {
		return nil
	}
	for _, e := range t.Entrants {
		if l.has(e.Account, e.Name) {
			return errLinked
		}
	}
	return nil
}

// refuseLinked refuses a rated game between a and the account named
// other when they are linked.
func (s *Server) refuseLinked(ctx context.Context, a accounts.Account, other string) error {
	if s.opts.AllowLinkedAccounts {
		return nil
	}
	l, err := s.linksOf(ctx, a.ID)
	if err != nil {
		return err
	}
	if l.has(0, other) {
		return errLinked
	}
	return nil
}

// casualRoundEnded counts a finished casual round (not rated, not solo
// practice) for every account seated in it, toward the rated probation.
func (s *Server) casualRoundEnded(room *match.Room, notices []match.Notice) {
	if room.Settings.Rated || room.Settings.Solo() {
		return
	}
	ended := false
	for _, n := range notices {
		ended = ended || n.Kind == match.NoticeRoundEnded
	}
	if !ended {
		return
	}
	var ids []accounts.ID
	for _, seat := range room.Seats {
		if seat.Account != 0 && !seat.Bot {
			ids = append(ids, accounts.ID(seat.Account))
		}
	}
	if len(ids) == 0 {
		return
	}
	code := room.Code
	s.tasks.goCtx(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := s.acct.store.AddCasualRound(ctx, ids); err != nil {
			s.log.Warn("casual round not counted", "room", code, "err", err)
		}
	})
}

// cmpOr is a when positive, else b.
func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// Names kept from before the name rules (docs/protocol.md "Accounts"):
// an account whose name carries a note (a reserved word, or a look-alike
// of an older account's name) is never seated in a rated game or entered
// in an accounts-only tournament under that name; it chooses a new one
// with POST /api/account/name (package identity).

// errNameNote refuses rated play to an account whose name carries a note.
var errNameNote = errors.New("server: rated games need a name the name rules accept")

// nameNoteCheck refuses rated play under a noted name.
func nameNoteCheck(a accounts.Account) error {
	switch a.NameNote {
	case "":
		return nil
	case accounts.NoteReserved:
		return fmt.Errorf("%w: your name %q holds a word kept for the site's bots, moderators or name, so rated games would show you as one of them. Choose a new name (POST /api/account/name); casual rooms are open as they are",
			errNameNote, a.Name)
	default:
		return fmt.Errorf("%w: your name %q is a %s, from before look-alike names were refused, so rated games would show you like that player. Choose a new name (POST /api/account/name); casual rooms are open as they are",
			errNameNote, a.Name, a.NameNote)
	}
}
