package protocol_test

import (
	"encoding/json"
	"strings"
	"testing"

	"golfsolitaire/protocol"
)

// TestNegotiate: the server speaks the highest version both speak.
func TestNegotiate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		highest, want int
		ok            bool
	}{
		{0, 0, false}, {-1, 0, false}, {1, 0, false}, {2, 2, true}, {3, 2, true}, {1 << 30, 2, true},
	} {
		if got, ok := protocol.Negotiate(tc.highest); got != tc.want || ok != tc.ok {
			t.Errorf("Negotiate(%d) = %d, %v; want %d, %v", tc.highest, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseClientMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		frame string
		want  string // "" for no error; else a substring of the error
	}{
		{`{"type":"move","hole":1,"move":"3","seq":7}`, ""},
		{`{"type":"hello","protocol":2,"room":"ABC","token":"t","since":4}`, ""},
		// A hello's unknown fields are ignored (a newer client may say
		// more), a command's are refused.
		{`{"type":"hello","protocol":3,"room":"ABC","compression":"zstd","seat":1}`, ""},
		{`{"compression":"zstd","type":"hello","protocol":2}`, ""},
		{`{"type":"hello","protocol":"2"}`, "protocol must be a whole number"},
		{`{"type":"ping","compression":"zstd"}`, `unknown field "compression"`},
		{`{"type":"hello","x":1} {"type":"ping"}`, "one JSON object a frame"},
		{`{"type":"ready","ready":false}`, ""},
		{`{"type":"move","seq":"7"}`, "seq must be a whole number"},
		{`{"type":"move","seq":1.5}`, "seq must be a whole number"},
		{`{"type":"move","hole":"1"}`, "hole must be a whole number"},
		{`{"type":"move","move":3}`, "move must be a string"},
		{`{"type":"ready","ready":"yes"}`, "ready must be true or false"},
		{`{"type":7}`, "type must be a string"},
		{`{"type":"hello","since":"x"}`, "since must be a whole number"},
		{`{"type":"move","seat":1,"move":"s"}`, `unknown field "seat"`},
		{`[1,2]`, "must be a JSON object"},
		{`"move"`, "must be a JSON object"},
		{`{"type":"move"`, "not valid JSON"},
		{`not json`, "not valid JSON"},
		{``, "not valid JSON"},
		{`{"type":"ping"} {"type":"ping"}`, "one JSON object a frame"},
	}
	for _, tc := range tests {
		t.Run(tc.frame, func(t *testing.T) {
			t.Parallel()
			_, err := protocol.ParseClientMessage([]byte(tc.frame))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
			if err != nil {
				checkWords(t, err.Error())
			}
		})
	}
}

// checkWords fails on an error that shows Go internals.
func checkWords(t *testing.T, msg string) {
	t.Helper()
	for _, bad := range []string{"Go struct", "unmarshal", "json:", "int64", "ClientMessage", "protocol.", "invalid character"} {
		if strings.Contains(msg, bad) {
			t.Fatalf("error %q shows Go internals (%q)", msg, bad)
		}
	}
}

// FuzzParseClientMessage: any frame parses or is refused in words, never
// panics, and what parses encodes back to a frame that parses the same.
func FuzzParseClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","hole":1,"move":"s","seq":3}`, `{"type":"hello","protocol":2,"room":"X"}`, `{"type":"hello","protocol":3,"more":[1]}`,
		`{"type":"move","seq":"7"}`, `{"seat":1}`, `[]`, `{`, `null`, `{"ready":null}`, `{"type":"a"}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := protocol.ParseClientMessage(b)
		if err != nil {
			checkWords(t, err.Error())
			return
		}
		again, err := protocol.ParseClientMessage(mustJSON(t, m))
		if err != nil {
			t.Fatalf("re-encoded %+v does not parse: %v", m, err)
		}
		if again.Type != m.Type || again.Seq != m.Seq || again.Move != m.Move || again.Hole != m.Hole {
			t.Fatalf("round trip %+v -> %+v", m, again)
		}
	})
}

func mustJSON(t *testing.T, m protocol.ClientMessage) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
