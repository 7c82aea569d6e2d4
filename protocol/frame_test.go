package protocol_test

import (
	"bytes"
	"math"
	"testing"

	"golfsolitaire/protocol"
)

// TestAckFrame holds AckFrame to ServerMessage.Marshal's bytes.
func TestAckFrame(t *testing.T) {
	t.Parallel()
	tests := []struct{ seq, v int64 }{
		{0, 0}, {1, 0}, {0, 1}, {7, 42}, {-3, 9}, {math.MaxInt64, math.MinInt64}, {123456789, 987654321},
	}
	for _, tt := range tests {
		want := protocol.ServerMessage{Type: protocol.TypeAck, Seq: tt.seq, V: tt.v}.Marshal()
		if got := protocol.AckFrame(tt.seq, tt.v); !bytes.Equal(got, want) {
			t.Errorf("AckFrame(%d, %d) = %s, want %s", tt.seq, tt.v, got, want)
		}
	}
}
