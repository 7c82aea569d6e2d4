package server_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"golfsolitaire/protocol"
)

// TestProtocolVersions: a hello says the highest protocol version the
// client speaks. A client of protocol 1 (whole views in every event) is
// told, in words and in versions, that the server speaks 2 and is closed
// with 1008, never left with a stream it cannot read; a client speaking 2,
// or a newer one (3), is welcomed as 2 with the server's features; a
// hello's unknown fields are ignored (a newer client may say more).
func TestProtocolVersions(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 1, nil), "Ana")
	hello := func(extra string) []byte {
		return []byte(`{"type":"hello","room":"` + g[0].Code + `","token":"` + g[0].Token + `"` + extra + `}`)
	}
	for _, tc := range []struct {
		name  string
		frame []byte
	}{
		{"protocol 1", hello(`,"protocol":1`)},
		{"no protocol", hello(``)},
		{"protocol 0", hello(`,"protocol":0`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.unchanged(t, g[0].Code, func() {
				ws := rawDial(t, ctx, e.ts, nil)
				if err := ws.Write(ctx, websocket.MessageText, tc.frame); err != nil {
					t.Fatal(err)
				}
				m := readHelloAnswer(t, ws)
				if m.Type != protocol.TypeError || m.Code != protocol.ErrCodeBadVersion || !slices.Equal(m.Versions, []int{2}) ||
					!strings.Contains(m.Message, "protocol version 2") {
					t.Fatalf("got %+v, want bad_version naming version 2 in words and in versions", m)
				}
				if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
					t.Fatalf("closed with %v, want 1008", err)
				}
			})
		})
	}
	for _, tc := range []struct {
		name  string
		frame []byte
	}{
		{"protocol 2", hello(`,"protocol":2`)},
		{"protocol 3", hello(`,"protocol":3`)},
		{"unknown fields", hello(`,"protocol":2,"compression":"zstd","seat":1,"client":{"name":"x"}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := rawDial(t, ctx, e.ts, nil)
			if err := ws.Write(ctx, websocket.MessageText, tc.frame); err != nil {
				t.Fatal(err)
			}
			m := readHelloAnswer(t, ws)
			if m.Type != protocol.TypeWelcome || m.Protocol != 2 || m.Seat == nil || *m.Seat != 0 || !slices.Contains(m.Features, "patch") {
				b, _ := json.Marshal(m)
				t.Fatalf("got %s, want a welcome as protocol 2 to seat 0 with the patch feature", b)
			}
			if m := rawRead(t, ctx, ws); m.Type != protocol.TypeSnapshot || m.View == nil {
				t.Fatalf("got %+v, want the snapshot", m)
			}
			ws.Close(websocket.StatusNormalClosure, "")
		})
	}
}

// helloAnswer is what a hello is answered with, read as any client would.
type helloAnswer struct {
	Type     string   `json:"type"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Protocol int      `json:"protocol"`
	Versions []int    `json:"versions"`
	Features []string `json:"features"`
	Seat     *int     `json:"seat"`
}

func readHelloAnswer(t *testing.T, ws *websocket.Conn) helloAnswer {
	t.Helper()
	_, b, err := ws.Read(testCtx(t))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m helloAnswer
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("bad frame %q: %v", b, err)
	}
	return m
}
