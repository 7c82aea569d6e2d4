// Package botrun runs the bots a host adds to a practice room, and makes
// them outlive the instance that runs them.
//
// A bot is a goroutine playing through the WebSocket like any client, with
// its own seat token, from its own view (package bot), over an in-memory
// connection to the server (server/botnet.go): never a dial to an address. So that another
// instance (or this one, restarted) can carry on when the instance running
// it stops, everything needed to run a bot again lives in the store:
//
//   - A record per bot (store.SetBot, under a random bot id in the room):
//     its level and its seat token. The seat is the one whose token hash
//     the room holds, so the record needs no update when the bot joins.
//     The token is kept server-side on purpose: it is a credential like any
//     player's, stored as it is only in the store (which also holds every
//     round's secret seed), never in the room's snapshot or events (those
//     hold its hash), and never in a view, event or API answer. Minting a
//     new token on each takeover would need a new room event, and a shared
//     secret to derive tokens would need configuration every instance
//     agrees on; a stored token needs neither.
//   - A lease per bot (store.TakeLease, key "bot:<room>:<id>"), held by the
//     instance running it and renewed every third of Options.Lease (server.Options.BotLease). An
//     instance that cannot renew stops its bot at half the lease, before
//     the lease can lapse, so at most one instance runs a bot at a time.
//
// Every instance sweeps the records every
// Options.SweepEvery (server.Options.BotSweepEvery; and at once when it loads a room with bots, or
// hears that a bot's seat went away): it reads the bots that are due in
// the store's due-time index (store.Bots: a running bot is due when its
// lease ends, each renewal pushing that on; a released one at once),
// takes the lease of each bot that nobody holds, and starts the bot if
// its room is waiting or playing. The
// bot resumes from the view it receives, in the middle of a hole if need
// be, with sequence numbers above the seat's last.
//
// A bot stops for good (its record forgotten) when its room has finished
// and nobody asked for a rematch within Linger, or its seat or room is
// gone. On Stop (the server's Close) the instance stops its bots and releases their leases, so
// another instance takes them over at its next sweep instead of after the
// lease runs out; after a crash they resume once their leases lapse.
package botrun
