package server_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// TestNameNoteShown: an account kept from before the name rules with a
// reserved name ("GreedyBot") logs in and shows its note in the player
// object; it is never seated in a rated room or an accounts-only
// tournament under that name (403 not_eligible asks for a new name);
// once it chooses one (POST /api/account/name, checked like a sign-up)
// the note is gone and it plays rated games. An account with no note
// keeps its name.
func TestNameNoteShown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	acct := inmem.New()
	hash, err := accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}.Hash("correct horse", rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := acct.Create(ctx, accounts.Account{Name: "GreedyBot", Key: "greedybot", PasswordHash: hash, NameNote: accounts.NoteReserved})
	if err != nil {
		t.Fatal(err)
	}
	fp := fairplay.NewMemoryStore()
	e := newEnv(t, withAccounts(acct), func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, ModeratorToken: "mod-secret"}
	})
	// Moderators see the note with a flag.
	player := "account:" + strconv.FormatInt(int64(legacy.ID), 10)
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: player, Name: "GreedyBot", FlaggedAt: time.Now(), Held: true}); err != nil {
		t.Fatal(err)
	}
	var flags struct {
		NameNotes map[string]string `json:"nameNotes"`
	}
	mod := newBrowser(t, e.ts)
	mod.wantStatus(mod.do("GET", "/api/fairplay/flags", nil, &flags, "Authorization", "Bearer mod-secret"), http.StatusOK)
	if flags.NameNotes[player] != accounts.NoteReserved {
		t.Errorf("the flags' name notes = %v, want %s reserved", flags.NameNotes, player)
	}
	var p struct {
		Name     string `json:"name"`
		NameNote string `json:"nameNote"`
	}
	g := newBrowser(t, e.ts)
	g.wantStatus(g.do("GET", "/api/players/GreedyBot", nil, &p), http.StatusOK)
	if p.NameNote != accounts.NoteReserved {
		t.Errorf("GreedyBot's player object: %+v, want nameNote %q", p, accounts.NoteReserved)
	}
	g.wantStatus(g.do("POST", "/api/account/login", map[string]any{"name": "GreedyBot", "password": "correct horse"}, nil), http.StatusOK)
	var refused protocol.APIError
	resp := g.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, &refused)
	if resp.StatusCode != http.StatusForbidden || refused.Code != protocol.ErrCodeNotEligible || !strings.Contains(refused.Message, "new name") {
		t.Errorf("GreedyBot's rated room = %d %+v, want 403 not_eligible asking for a new name", resp.StatusCode, refused)
	}
	refused = protocol.APIError{}
	resp = g.do("POST", "/api/tournaments", map[string]any{"name": "x", "settings": map[string]any{"name": "Members", "holes": 9, "accounts": true}}, &refused)
	if resp.StatusCode != http.StatusForbidden || refused.Code != protocol.ErrCodeNotEligible {
		t.Errorf("GreedyBot's accounts-only tournament = %d %+v, want 403 not_eligible", resp.StatusCode, refused)
	}
	// Casual rooms are open as before.
	g.wantStatus(g.do("POST", "/api/rooms", map[string]any{"name": "Greedy", "settings": stroke(2, 1, nil)}, nil), http.StatusCreated)

	// The new name is checked like a sign-up's.
	refused = protocol.APIError{}
	g.wantStatus(g.do("POST", "/api/account/name", map[string]any{"name": "GreedyBot2"}, &refused), http.StatusBadRequest)
	if refused.Code != protocol.ErrCodeInvalid || !strings.Contains(refused.Message, "bot") {
		t.Errorf("renamed to GreedyBot2: %+v, want invalid (reserved)", refused)
	}
	p = struct {
		Name     string `json:"name"`
		NameNote string `json:"nameNote"`
	}{}
	g.wantStatus(g.do("POST", "/api/account/name", map[string]any{"name": "Greta"}, &p), http.StatusOK)
	if p.Name != "Greta" || p.NameNote != "" {
		t.Errorf("after the rename: %+v, want Greta without a note", p)
	}
	g.wantStatus(g.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, nil), http.StatusCreated)
	g.wantStatus(g.do("GET", "/api/players/GreedyBot", nil, nil), http.StatusNotFound)

	// A name with no note is kept: no rename.
	ana := newBrowser(t, e.ts)
	ana.signup("Ana", "correct horse")
	refused = protocol.APIError{}
	resp = ana.do("POST", "/api/account/name", map[string]any{"name": "Anna"}, &refused)
	if resp.StatusCode != http.StatusConflict || refused.Message == "" {
		t.Errorf("Ana's rename = %d %+v, want 409 (her name needs none)", resp.StatusCode, refused)
	}
}
