package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/protocol/patch"
)

// fakeRoom is a server that speaks just enough of the protocol to test
// the client's handling of patches: after the welcome it sends a
// snapshot, then the frames of script; a resync is answered with a
// snapshot of the latest view.
type fakeRoom struct {
	views   [][]byte // the room's views by version - 1
	script  func(send func([]byte))
	resyncs atomic.Int64
}

func view(v int64, hole int, waste ...string) []byte {
	b, _ := json.Marshal(match.View{V: v, Code: "FAK-ERO-OM0", Settings: match.DefaultSettings(), Status: match.Playing, Hole: hole, You: 0,
		Seats: []match.SeatView{{Name: "Ana"}}, Progress: []match.Finish{}, Revealed: []int{},
		Board: &match.Board{Hole: hole, Waste: waste, Piles: [][]string{{"2C", "3D"}}, Playable: []int{}}})
	return b
}

func (f *fakeRoom) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ctx := r.Context()
	if _, _, err := ws.Read(ctx); err != nil { // hello
		return
	}
	seat := 0
	send := func(b []byte) { ws.Write(ctx, websocket.MessageText, b) }
	send(protocol.ServerMessage{Type: protocol.TypeWelcome, Protocol: protocol.Version, Seat: &seat, V: 1}.Marshal())
	send(protocol.SnapshotFrame(1, f.views[0]))
	// Like the real server's one queue a socket, the frames sent before
	// a resync is read come before its snapshot.
	f.script(send)
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m protocol.ClientMessage
		if json.Unmarshal(b, &m) == nil && m.Type == protocol.TypeResync {
			f.resyncs.Add(1)
			last := f.views[len(f.views)-1]
			send(protocol.SnapshotFrame(int64(len(f.views)), last))
		}
	}
}

// patchFrame is the event frame of version v patching the view of
// version base.
func (f *fakeRoom) patchFrame(t *testing.T, v, base int64) []byte {
	p, err := patch.Diff(f.views[base-1], f.views[v-1])
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(match.EventView{V: v, Kind: match.KindMove})
	return protocol.PatchFrame(v, base, ev, p)
}

// TestPatchesAndResync: the client applies each event's patch to the view
// it holds; a frame it missed (the next patch's base is not its view) or
// a patch that does not apply makes it ask for a snapshot once, ignore
// the patches until it comes, and go on from it.
func TestPatchesAndResync(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		frames  func(f *fakeRoom) [][]byte
		resyncs int64
	}{
		{"in order", func(f *fakeRoom) [][]byte {
			return [][]byte{f.patchFrame(t, 2, 1), f.patchFrame(t, 3, 2), f.patchFrame(t, 4, 3), f.patchFrame(t, 5, 4)}
		}, 0},
		{"a frame missed", func(f *fakeRoom) [][]byte {
			// v3's frame never arrives: v4's base is not the view held.
			return [][]byte{f.patchFrame(t, 2, 1), f.patchFrame(t, 4, 3)}
		}, 1},
		{"a wrong base, then more", func(f *fakeRoom) [][]byte {
			return [][]byte{f.patchFrame(t, 3, 2), f.patchFrame(t, 4, 3), f.patchFrame(t, 5, 4)}
		}, 1},
		{"after a reload: base at or above v", func(f *fakeRoom) [][]byte {
			// The server reloaded the room at v5 and sends the events it
			// had not sent (v2-v5), each with the view it has now: the
			// first patch brings the view to v5, the others are {} with
			// base 5, the view's v, above the frame's v and then equal
			// to it (docs/protocol.md "Live events").
			frames := [][]byte{f.patchFrame(t, 5, 1)}
			frames[0] = bytes.Replace(frames[0], []byte(`"v":5,"base":1,`), []byte(`"v":2,"base":1,`), 1)
			if !bytes.Contains(frames[0], []byte(`"v":2,"base":1,`)) {
				t.Fatalf("frame %s", frames[0])
			}
			for v := int64(3); v <= 5; v++ {
				ev, _ := json.Marshal(match.EventView{Kind: match.KindMove})
				frames = append(frames, protocol.PatchFrame(v, 5, ev, []byte(`{}`)))
			}
			return frames
		}, 0},
		{"a patch that does not apply", func(f *fakeRoom) [][]byte {
			ev, _ := json.Marshal(match.EventView{V: 2, Kind: match.KindMove})
			return [][]byte{protocol.PatchFrame(2, 1, ev, []byte(`{"board":{"piles":{"7":{"-":1}}}}`))}
		}, 1},
	}
	for _, tt := range tests {
		for _, lazy := range []bool{false, true} {
			name := tt.name
			if lazy {
				name += ", lazy views"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				patchesAndResync(t, tt.frames, tt.resyncs, lazy)
			})
		}
	}
}

// patchesAndResync is a case of TestPatchesAndResync, its views decoded
// at each event or (lazy) when asked for.
func patchesAndResync(t *testing.T, frames func(f *fakeRoom) [][]byte, resyncs int64, lazy bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := &fakeRoom{views: [][]byte{view(1, 1, "KH"), view(2, 1, "KH", "QS"), view(3, 1, "KH", "QS", "JD"), view(4, 1, "KH", "QS", "JD", "TC"), view(5, 2, "9S")}}
	sent := frames(f)
	f.script = func(send func([]byte)) {
		for _, b := range sent {
			send(b)
		}
	}
	ts := httptest.NewServer(http.HandlerFunc(f.serve))
	defer ts.Close()
	c, err := client.Dial(ctx, ts.URL, &client.Options{Room: "FAK-ERO-OM0", LazyViews: lazy})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	v, err := c.WaitView(ctx, func(v *match.View) bool { return v.V == 5 })
	if err != nil {
		t.Fatalf("view %+v: %v", v, err)
	}
	if v.Hole != 2 || v.Board == nil || len(v.Board.Waste) != 1 || v.Board.Waste[0] != "9S" {
		t.Errorf("final view: hole %d board %+v", v.Hole, v.Board)
	}
	if got := c.Resyncs(); got != resyncs {
		t.Errorf("the client asked for %d snapshots, want %d", got, resyncs)
	}
	if got := f.resyncs.Load(); got != resyncs {
		t.Errorf("the server got %d resyncs, want %d", got, resyncs)
	}
	// The view held encodes as the room's last view.
	if got, _ := json.Marshal(c.View()); !bytes.Equal(got, f.views[len(f.views)-1]) {
		t.Errorf("view held:\n%s\nwant\n%s", got, f.views[len(f.views)-1])
	}
}

// TestOnUpdate: with OnUpdate the reader hands it every update, in
// order, on its own goroutine (the connection given is the one dialed,
// its seat known), and Updates delivers none and is closed when the
// connection ends.
func TestOnUpdate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := &fakeRoom{views: [][]byte{view(1, 1, "KH"), view(2, 1, "KH", "QS"), view(3, 1, "KH", "QS", "JD")}}
	sent := [][]byte{f.patchFrame(t, 2, 1), f.patchFrame(t, 3, 2)}
	f.script = func(send func([]byte)) {
		for _, b := range sent {
			send(b)
		}
	}
	ts := httptest.NewServer(http.HandlerFunc(f.serve))
	defer ts.Close()
	got := make(chan string, 8)
	c, err := client.Dial(ctx, ts.URL, &client.Options{Room: "FAK-ERO-OM0", LazyViews: true,
		OnUpdate: func(c *client.Conn, m protocol.ServerMessage) {
			got <- fmt.Sprintf("%s v%d seat %d", m.Type, m.V, c.Seat())
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"snapshot v1 seat 0", "event v2 seat 0", "event v3 seat 0"} {
		select {
		case g := <-got:
			if g != want {
				t.Errorf("update %q, want %q", g, want)
			}
		case <-ctx.Done():
			t.Fatalf("no update %q", want)
		}
	}
	if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.V == 3 }); err != nil {
		t.Fatal(err)
	}
	c.CloseNow()
	<-c.Done()
	if m, ok := <-c.Updates(); ok {
		t.Errorf("Updates delivered %+v with OnUpdate set", m)
	}
}
