package tourney

import (
	"fmt"
	"testing"
)

// BenchmarkEncode2000 is the snapshot a tournament hub writes with each
// batch of results: 2,000 entrants, 9 holes, half played.
func BenchmarkEncode2000(b *testing.B) {
	tr := newTournament(&testing.T{}, DefaultSettings())
	for i := range 2000 {
		tr.Apply(Event{Kind: KindJoin, At: t0, Name: fmt.Sprint("load-", i), Token: hash(fmt.Sprint(i))})
	}
	tr.Apply(Event{Kind: KindStart, At: t0, Token: hash("host")})
	for i := range 2000 {
		tr.Apply(Event{Kind: KindRoom, Entrant: i, Room: fmt.Sprintf("ABC-DEF-%03d", i%1000)})
		for h := 1; h <= 4; h++ {
			tr.Apply(Event{Kind: KindResult, At: t0, Entrant: i, Hole: h, Score: h})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		data, err := tr.Encode()
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
}
