package bot

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
)

// RunOptions configure Run.
type RunOptions struct {
	// URL is the server's base URL ("http://127.0.0.1:8080"). Required.
	URL string
	// HTTPClient opens the bot's connections; default http.DefaultClient.
	// A server running its own bots passes one that reaches it in memory.
	HTTPClient *http.Client
	// Room and Token are the room code and the bot's seat token. Required.
	Room, Token string
	Level       Level
	// Think is the pause before each move; default 300ms.
	Think time.Duration
	// Linger is how long a bot waits in a finished room for a rematch
	// before it leaves; default 2 minutes.
	Linger time.Duration
	// FirstSeq is the least command sequence number to use; default 0.
	// A bot taking over a seat another process played must start above
	// the seat's last applied number (match.Seat.LastSeq): the server
	// acknowledges a lower one as a duplicate without applying it, and
	// the clocks of two machines (the default first number is the time in
	// microseconds) may disagree.
	FirstSeq int64
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Gate, when set, runs the search level's thinking (the solver): the
	// server passes its solver pool, so its bots share the pool's workers
	// and quotas with everything else. A turn the gate refuses is played
	// greedily. Nil: the bot thinks on its own goroutine.
	Gate Gate
	// Yield, when set, is how the search level's solves give way to
	// other goroutines (Player.Yield).
	Yield func()
}

// Gate runs solver work for a bot: Do runs fn (or refuses with an error
// and does not run it) and returns once fn has returned.
type Gate interface {
	Do(ctx context.Context, fn func()) error
}

// Run plays in the room until it is finished (and nobody asked for a
// rematch within Linger), the seat token stops working, or ctx is done.
// It reconnects like any client when the connection drops, with backoff,
// and goes on from the view it receives: it may start (or resume) in the
// middle of a hole, its own moves already on the board (see
// Player.observe), and its sequence numbers keep increasing across
// connections.
func Run(ctx context.Context, o RunOptions) error {
	if o.Think <= 0 {
		o.Think = 300 * time.Millisecond
	}
	if o.Linger <= 0 {
		o.Linger = 2 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	p := NewPlayer(o.Level, rand.Uint64())
	p.Yield = o.Yield
	var since int64
	seq := o.FirstSeq
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		first := max(seq, time.Now().UnixMicro())
		c, err := client.Dial(ctx, o.URL, &client.Options{Room: o.Room, Token: o.Token, Since: since, Buffer: 256, FirstSeq: first, HTTPClient: o.HTTPClient})
		if err != nil {
			if client.IsCode(err, "bad_token") || client.IsCode(err, "room_not_found") {
				return err
			}
			if !sleep(ctx, backoff+rand.N(backoff)) {
				break
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		done, err := play(ctx, c, p, o)
		since = c.Version()
		seq = c.NextSeq() // above every number this connection used
		c.Close()
		if done {
			return nil
		}
		if err != nil && ctx.Err() == nil {
			o.Logger.Debug("bot reconnecting", "room", o.Room, "err", err)
		}
	}
	return ctx.Err()
}

// drain discards pushed messages: the bot reads its view with WaitView.
func drain(c *client.Conn) {
	for range c.Updates() {
	}
}

// play runs one connection. done reports the bot has finished with the
// room; otherwise the connection ended and Run dials again.
func play(ctx context.Context, c *client.Conn, p *Player, o RunOptions) (done bool, err error) {
	go drain(c)
	var last int64 = -1
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.V > last })
		if err != nil {
			return false, err
		}
		last = v.V
		if v.Status == match.Finished {
			lctx, cancel := context.WithTimeout(ctx, o.Linger)
			_, err := c.WaitView(lctx, func(v *match.View) bool { return v.Status != match.Finished })
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return false, ctx.Err()
				}
				return errors.Is(err, context.DeadlineExceeded), err
			}
			continue
		}
		move, err := choose(ctx, p, v, o)
		if err != nil {
			return false, err
		}
		if move == "" {
			continue
		}
		if !sleep(ctx, o.Think/2+rand.N(o.Think)) {
			return false, ctx.Err()
		}
		hole := v.Hole
		ack, err := c.Move(ctx, hole, move)
		if err != nil {
			var e *client.Error
			if errors.As(err, &e) {
				continue // the hole or round moved on meanwhile: look again
			}
			return false, err
		}
		after, err := c.WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V })
		if err != nil {
			return false, err
		}
		p.Played(hole, move, after.Board)
	}
}

// choose decides the next move, through the gate for the search level.
func choose(ctx context.Context, p *Player, v *match.View, o RunOptions) (string, error) {
	if o.Gate == nil || p.Level != Search {
		return p.Choose(v), nil
	}
	var move string
	if err := o.Gate.Do(ctx, func() { move = p.Choose(v) }); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return p.ChooseGreedy(v), nil
	}
	return move, nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
