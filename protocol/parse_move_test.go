package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// parseMoveCases are moves as clients write them and near misses that
// parseMove must leave to the decoder.
var parseMoveCases = []string{
	`{"type":"move","seq":1,"hole":1,"move":"3"}`,
	`{"type":"move","seq":12345,"hole":9,"move":"s"}`,
	`{"type":"move","seq":0,"hole":0,"move":""}`,
	`{"type":"move","hole":2,"move":"r"}`,
	`{"type":"move","seq":5}`,
	`{"type":"move"}`,
	`{"type":"move","move":"u"}`,
	`{"type":"move","seq":999999999,"hole":999999999,"move":"52"}`,
	`{"type":"move","seq":1234567890,"hole":1,"move":"3"}`,
	`{"type":"move","seq":1765000000123456,"hole":3,"move":"12"}`,
	`{"type":"move","seq":999999999999999999,"hole":1,"move":"3"}`,
	`{"type":"move","seq":9999999999999999999,"hole":1,"move":"3"}`,
	`{"type":"move","seq":1,"hole":1234567890,"move":"3"}`,
	`{"type":"move","seq":01,"hole":1,"move":"3"}`,
	`{"type":"move","seq":-1,"hole":1,"move":"3"}`,
	`{"type":"move","seq":1e3,"hole":1,"move":"3"}`,
	`{"type":"move","seq":1.5,"hole":1,"move":"3"}`,
	`{"type":"move","hole":1,"seq":1,"move":"3"}`,
	`{"type":"move","seq":1,"seq":2,"move":"3"}`,
	`{"type":"move","seq":1,"hole":1,"move":"3\"}`,
	`{"type":"move","seq":1,"hole":1,"move":"\u0033"}`,
	`{"type":"move","seq":1,"hole":1,"move":"3","extra":1}`,
	`{"type":"move","seq":1,"hole":1,"move":"3"} `,
	`{"type":"move","seq":1,"hole":1,"move":"3"}{}`,
	`{"type":"move", "seq":1}`,
	`{"type":"move","seq":1,}`,
	`{"type":"move","seq":}`,
	`{"type":"move","seq":"1"}`,
	`{"type":"move","move":3}`,
	`{"type":"move","move":"3}`,
	`{"type":"movex"}`,
	`{"type":"move"`,
	`{"type":"move"}}`,
	`{"type":"move","seat":1}`,
	`{"type":"hello","seq":1}`,
	`{"type":"move","seq":1,"hole":1,"move":"é"}`,
	``, `}`, `{`,
}

// TestParseMove: whatever parseMove reads, it reads as the strict decoder
// does.
func TestParseMove(t *testing.T) {
	t.Parallel()
	read := 0
	for _, in := range parseMoveCases {
		if checkParseMove(t, []byte(in)) {
			read++
		}
	}
	if read < 8 {
		t.Errorf("parseMove read %d of the clients' moves, want 8", read)
	}
	// The Go client's moves (client.Client.Move): seqs from the time in
	// microseconds.
	for _, mv := range []string{"1", "52", "s", "r", "u"} {
		b, err := json.Marshal(ClientMessage{Type: TypeMove, Seq: time.Now().UnixMicro(), Hole: 9, Move: mv})
		if err != nil {
			t.Fatal(err)
		}
		if !checkParseMove(t, b) {
			t.Errorf("parseMove left %s to the decoder", b)
		}
	}
}

// checkParseMove reports whether parseMove read b, failing t when it read
// it otherwise than decodeClientMessage.
func checkParseMove(t *testing.T, b []byte) bool {
	t.Helper()
	m, ok := parseMove(b)
	if !ok {
		return false
	}
	want, err := decodeClientMessage(b, true)
	if err != nil {
		t.Errorf("parseMove(%s) = %+v, the decoder refuses it: %v", b, m, err)
	} else if !reflect.DeepEqual(m, want) {
		t.Errorf("parseMove(%s) = %+v, the decoder reads %+v", b, m, want)
	}
	return true
}

func FuzzParseMove(f *testing.F) {
	for _, in := range parseMoveCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkParseMove(t, b) })
}
