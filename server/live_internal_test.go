package server

import "testing"

// TestRoomLivePack: a room's live counts come back from their word as
// they went in, the counts past 30 bits as the most that fits.
func TestRoomLivePack(t *testing.T) {
	t.Parallel()
	const most = 1<<30 - 1
	for _, c := range []struct{ in, want roomLive }{
		{roomLive{}, roomLive{}},
		{roomLive{playing: true}, roomLive{playing: true}},
		{roomLive{watchable: true, players: 2}, roomLive{watchable: true, players: 2}},
		{roomLive{rated: true, spectators: 1000}, roomLive{rated: true, spectators: 1000}},
		{roomLive{true, true, true, 8, most}, roomLive{true, true, true, 8, most}},
		{roomLive{playing: true, players: most + 5, spectators: 1 << 40}, roomLive{playing: true, players: most, spectators: most}},
	} {
		if got := unpackLive(c.in.pack()); got != c.want {
			t.Errorf("%+v packed and unpacked: %+v, want %+v", c.in, got, c.want)
		}
	}
}
