package load

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"golfsolitaire/limit"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// TestAttackAddresses: with ClientHeader every honest player and every
// attacker is a client of its own. The server trusts the header and lets
// each client create one room, join once and hold one socket: the honest
// players still play without an error (each seat of each room has its own
// address), and each attacker gets exactly its one room and one socket
// (its own address: the setup of its targets, from other addresses, is
// not charged to it).
func TestAttackAddresses(t *testing.T) {
	one := limit.Rate{PerSecond: 1.0 / 3600, Burst: 1}
	st := memstore.New(memstore.Options{})
	defer st.Close()
	lim := limit.NoLimits()
	lim.TrustedHeader, lim.Rooms, lim.Joins, lim.SocketsPerClient = "X-Forwarded-For", one, one, 1
	srv, err := server.New(server.Options{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: lim,
		PlayerRate: limit.Rate{PerSecond: 1e6, Burst: 1e6}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer func() {
		srv.Close()
		ts.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	atk, err := StartAttack(ctx, AttackConfig{URL: ts.URL, Attackers: 2, Kinds: []string{"create", "sockets"}, ClientHeader: "X-Forwarded-For"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, Config{URL: ts.URL, Rooms: 2, Players: 2, Holes: 1, Duration: 2 * time.Second, ClientHeader: "X-Forwarded-For"})
	results := atk.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves == 0 || res.Errors != 0 {
		t.Errorf("honest players: %d moves, %d errors %v", res.Moves, res.Errors, res.ErrorSamples)
	}
	for _, r := range results {
		if r.Accepted != 2 || r.Requests < 3 || r.Refused != r.Requests-2 {
			t.Errorf("%v: want one accepted for each of the 2 attackers, the rest refused", r)
		}
	}
	if _, err := StartAttack(ctx, AttackConfig{URL: ts.URL, Kinds: []string{"flood"}}); err == nil {
		t.Error("an unknown attack started")
	}
}
