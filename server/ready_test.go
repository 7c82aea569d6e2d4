package server_test

import (
	"testing"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// TestReadyWithinOption: a server's ReadyWithin (--ready-within) is how
// long a guest in a public room has to say ready; a guest who does not is
// released, and the host sees the seat gone.
func TestReadyWithinOption(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	// Long enough for Ana to dial and say ready on a loaded machine (at
	// 300 ms her own seat was once given up first), short enough to wait.
	ts, api := newTestServer(t, st, func(o *server.Options) { o.ReadyWithin = 2 * time.Second })
	g1, err := api.CreateRoom(ctx, map[string]any{"game": "golf", "holes": 1, "seats": 3, "format": "stroke", "public": true}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Join(ctx, g1.Code, "Bo"); err != nil {
		t.Fatal(err)
	}
	c1 := dial(t, ctx, ts.URL, g1.Code, g1.Token)
	// A public room starts by itself once everyone is ready: Ana says so,
	// Bo never does.
	if err := c1.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	v, err := c1.WaitView(ctx, func(v *match.View) bool { return len(v.Seats) == 1 })
	if err != nil {
		t.Fatalf("Bo was not released: %v", err)
	}
	if v.Seats[0].Name != "Ana" {
		t.Fatalf("seats after the release: %+v", v.Seats)
	}
}
