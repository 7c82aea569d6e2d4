package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// TestChallengeInbox: many accounts challenge one; the challenged
// account's inbox lists every challenge, newest first, on the memory
// store and on Redis (where a second challenge to the same account used
// to break the inbox with a 500: the inbox was replayed as a room). A
// second challenge from the same account replaces its first in the
// inbox; past the bound (20 challengers with a waiting room) a new one
// is refused with 409 inbox_full in words and creates no room; once a
// room no longer waits (its challenge was taken) the inbox has room
// again.
func TestChallengeInbox(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withAccounts(inmem.New()), manySignups)
		testChallengeInbox(t, e.ts)
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		st := newTestRedis(t).store(t)
		in := startInstance(t, st, false, withAccounts(inmem.New()), manySignups)
		testChallengeInbox(t, in.url)
	})
}

// manySignups lets one test client sign up the many accounts a test
// needs.
func manySignups(o *server.Options) {
	o.LoginRate = limit.Rate{PerSecond: 1000, Burst: 1000}
	o.SignupRate = limit.Rate{PerSecond: limit.Unlimited}
	o.AllowLinkedAccounts = true
}

func testChallengeInbox(t *testing.T, base string) {
	x := newBrowser(t, base)
	x.signup("Xena", "correct horse")
	const n = 21 // one more than an inbox holds
	senders := make([]*browser, n)
	for i := range senders {
		senders[i] = newBrowser(t, base)
		senders[i].signup(fmt.Sprintf("Sender%02d", i), "battery staple")
	}
	inbox := func() []protocol.Challenge {
		t.Helper()
		var list []protocol.Challenge
		x.wantStatus(x.do("GET", "/api/account/challenges", nil, &list), http.StatusOK)
		return list
	}
	codes := make([]string, n)
	for i := range n - 1 {
		var g protocol.SeatGrant
		senders[i].wantStatus(senders[i].do("POST", "/api/players/Xena/challenge", nil, &g), http.StatusCreated)
		codes[i] = g.Code
		if i == 1 {
			// The reported failure: the second challenge broke the inbox.
			if got := inbox(); len(got) != 2 || got[0].From != "Sender01" || got[1].From != "Sender00" {
				t.Fatalf("after two challenges the inbox is %+v, want Sender01's then Sender00's", got)
			}
		}
	}
	got := inbox()
	if len(got) != n-1 {
		t.Fatalf("the inbox holds %d challenges, want %d", len(got), n-1)
	}
	for j, c := range got {
		i := n - 2 - j // newest first
		if c.From != fmt.Sprintf("Sender%02d", i) || c.Code != codes[i] || c.To != "Xena" {
			t.Errorf("inbox[%d] = %+v, want Sender%02d's room %s", j, c, i, codes[i])
		}
	}
	// The same challenger again: its new challenge replaces the first.
	var again protocol.SeatGrant
	senders[0].wantStatus(senders[0].do("POST", "/api/players/Xena/challenge", map[string]any{"settings": map[string]any{"holes": 3}}, &again), http.StatusCreated)
	got = inbox()
	if len(got) != n-1 || got[0].From != "Sender00" || got[0].Code != again.Code || got[0].Holes != 3 {
		t.Fatalf("after Sender00 challenged again: %d challenges, newest %+v", len(got), got[0])
	}
	for _, c := range got[1:] {
		if c.From == "Sender00" {
			t.Errorf("Sender00's first challenge is still in the inbox: %+v", c)
		}
	}
	// Full: the twenty-first challenger is refused in words.
	last := senders[n-1]
	var apiErr protocol.APIError
	last.wantStatus(last.do("POST", "/api/players/Xena/challenge", nil, &apiErr), http.StatusConflict)
	if apiErr.Code != protocol.ErrCodeInboxFull || !strings.Contains(apiErr.Message, "20") || !strings.Contains(apiErr.Message, "Xena") {
		t.Errorf("a challenge to a full inbox: %+v, want inbox_full naming the bound and the player", apiErr)
	}
	if got := inbox(); len(got) != n-1 {
		t.Errorf("the refused challenge changed the inbox: %d challenges", len(got))
	}
	// Xena takes one challenge: its room no longer waits, so there is room.
	x.wantStatus(x.do("POST", "/api/rooms/"+codes[5]+"/join", map[string]any{"name": "x"}, nil), http.StatusOK)
	var g protocol.SeatGrant
	last.wantStatus(last.do("POST", "/api/players/Xena/challenge", nil, &g), http.StatusCreated)
	got = inbox()
	if len(got) != n-1 || got[0].From != fmt.Sprintf("Sender%02d", n-1) || got[0].Code != g.Code {
		t.Errorf("after one was taken and another sent: %d challenges, newest %+v", len(got), got[0])
	}
	// Xena's own inbox is untouched by her challenging someone else.
	x.wantStatus(x.do("POST", "/api/players/Sender03/challenge", nil, nil), http.StatusCreated)
	var theirs []protocol.Challenge
	senders[3].wantStatus(senders[3].do("GET", "/api/account/challenges", nil, &theirs), http.StatusOK)
	if len(theirs) != 1 || theirs[0].From != "Xena" {
		t.Errorf("Sender03's inbox = %+v, want Xena's challenge", theirs)
	}
}
