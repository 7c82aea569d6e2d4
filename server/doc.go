// Package server is the HTTP and WebSocket front of the game: the JSON API
// for rooms and tournaments, the WebSocket endpoints that carry play, and
// the hubs that keep each room's and tournament's state on this instance
// in step with the store. The rules live elsewhere (match, tourney, golf:
// pure, no I/O); so do the stores (store, accounts, fairplay), the job
// queue (jobs, results) and the pages (web, templates). This package
// only moves bytes between them.
//
// # A move, from socket to screens
//
// Follow one "move" frame through the package:
//
//  1. server.go: Server.ServeHTTP sets the security headers (headers.go)
//     and the body limit, then the mux built in routes sends GET /ws,
//     after the per-client socket cap (limit.go, capSockets), to serveWS.
//     serveWS accepts the WebSocket through a corkWriter (cork.go: frames
//     queued together go out in one write) and makes a conn (conn.go).
//  2. conn.go: conn.serve starts the socket's writer (sender.go: one
//     goroutine and a small buffer per socket; a client that cannot keep
//     up is closed, never waited on; its ticker pings the socket), then conn.run reads
//     the hello (protocol version, room code, seat token, the last
//     version seen), acquires the room's hub and attaches to it.
//     Each later frame passes the connection's rate bucket and goes to
//     conn.command: eventFor turns the message into a builder of a
//     match.Event (a ping, a resync, a hint, a reaction are answered on
//     the spot), and play hands it to the hub and answers with the ack.
//  3. server/internal/hubs: the hub's core, shared by rooms and
//     tournaments. A hubs.Registry starts one hub per room on first use
//     (subscribe to the room's log on the store's bus, then load its
//     snapshot) and stops it with its last user. Work reaches the hub's
//     single loop as ops; the loop also applies other instances' events,
//     fires the room's deadlines (ticks) and checks for lost messages
//     every ResyncEvery (a room whose subscription delivers puts the
//     check off). What a kind of hub adds is its hubs.Logic, plus the
//     optional capabilities it has (hubs.Lifecycle, hubs.Timer,
//     hubs.Batcher, hubs.Settled, hubs.Deferrer, hubs.Noticer: a room's
//     reactions come as notices on its subscription); core.go asserts
//     which each kind has.
//  4. hub.go: hub.apply, on the loop, builds the event against the cached
//     room and runs match.Room.Apply, which validates before it mutates.
//     The logged event is appended to the store with the version it
//     expects (store.RoomLog.Append; AppendOutbox when a finished hole
//     or a rated round leaves work for the job queue, pipeline.go), so
//     of several instances racing for a version only one wins; the loser
//     reloads and tries again. A snapshot is encoded only when the store
//     will write one (store.SnapshotDue).
//  5. hub.go: fanout sends every connection the event as its seat may see
//     it: a patch against the view it was sent last (match.ViewCache,
//     patch.Differ; each part's patch computed once for every viewer who
//     shares it) or the whole view, the mover's ack in the same write,
//     spectators' frames held back for the room's spectator delay. Then
//     the hub's side effects: the lobby listing (updateListing), deadline
//     timers, a tournament room's results (RoomChanged of package
//     server/tournaments, which posts them off the room's loop), casual
//     rounds for the linked-account check (linked.go), best scores
//     warmed on the solver (analysis.go, solver.go).
//  6. Other instances receive the event on their own subscriptions
//     (hub.entry) and fan it out to their own connections; a gap in the
//     versions makes a hub catch up from the store's history (resync).
//
// # A request, from router to answer
//
// Every API route is listed in one place, Server.routes (server.go);
// features add theirs through small route functions (accountRoutes,
// fairplayRoutes). A feature in a package of its own
// (server/tournaments, server/challenges, server/identity,
// server/moderation) mounts its routes with its Mount function, given
// only the narrow interfaces it declares, which mount.go implements over
// the server; the helpers such packages share with the core are in
// server/internal: api (JSON answers, body decoding, shared errors),
// codes (room codes, tokens, seeds, ids) and hubs. Take GET
// /api/rooms/{code}: ServeHTTP, then compress (compress.go) and
// withAccounts (session.go: the login session, and the cross-origin
// check of unsafe requests), then the mux's route, getRoom: pathRoom normalizes the code
// (codes.go), loadRoom reads the snapshot (store.RoomLog.Load, no hub
// needed) and decodes it, and the room's public view is written by
// writeJSON. A handler that fails calls Server.fail, which turns the
// error into its code and status through the one table in errors.go
// (errorCode, which asks tournaments.ErrorCode and accountErrorCode, in
// session.go, first; the other feature packages' errors are in it too)
// and adds Retry-After where one is known. Requests limited per
// client take a token first (limit.go, Server.allow).
//
// Paths outside /api/ and /ws go to Options.Pages: package web chooses
// the language and renders the templ components of package templates;
// the pages talk to this package's API and WebSocket like any client.
//
// # Where things are
//
// Rooms: server.go (options, routes, create and join), hub.go, core.go
// and server/internal/hubs (hubs), conn.go, sender.go, cork.go
// (sockets), gone.go (a room that expired under its hub), quickmatch.go, replay.go, review.go and
// analysis.go (hole replays, post-round analysis, hints and best lines),
// reactions.go, bots.go and botnet.go (practice bots, run by package
// botrun over an in-memory network), solver.go and solver_metrics.go
// (the solver pool and seed pools), live.go, tv_live.go and
// tv_counts.go (GET /api/live: the featured game, leaders and the
// site-wide counts every instance publishes).
//
// Tournaments: package server/tournaments, made and mounted by mount.go
// (newTournaments), which gives it the narrow interfaces of its Options
// (rooms, players, results, fair-play holds, answers, sockets, outages)
// and holds it by the seven methods the core calls (tournamentFeature:
// its routes, a tournament room's changes, held marks, leaders for GET
// /api/live, the daily challenge's tournament, its link, Close). In it:
// tournaments.go (routes and handlers), hub.go (the tournament's hub,
// which batches changes into one append), ws.go (watchers' sockets),
// board.go and leaders.go (leaderboards from the store's sorted sets),
// results.go (rooms' results posted to their tournament), clock.go
// (starts and closes that fall due), schedule.go (tournaments created
// ahead of their slot), held.go (entrants' held marks). The core keeps
// what is a room's: tournamentRoom (mount.go) makes and starts a
// tournament's room, and the room hub tells the tournaments of its
// changes.
//
// Accounts: package server/identity (sign-up and login with their limits
// and proof of work, logout, the session, account deletion, a noted
// account's new name, passkeys, players' profiles, archived games, the
// ratings leaderboards), mounted by mount.go; session.go keeps the
// players' session manager, the guest cookie and the cross-origin check
// that wrap every request, and currentAccount, which rooms and
// tournaments read.
//
// Rated play: rated.go (rated rooms and rated quick match), linked.go
// (accounts that share an address or device; probation; names noted
// from before the name rules), held.go (results held for review; a
// tournament's entrants' marks are package tournaments'). The
// rated-seat checks stay in the core, not in server/identity: room and
// tournament joins call them on every rated seat (ratedCheck,
// withLinks, linkedSeat, linkedEntry), and the hub records casual
// rounds for them, so moving them would make the core import the
// accounts package's HTTP side or widen its interfaces both ways.
//
// Fair play: fairplay.go (analysis of finished holes, the outbox
// entries), pipeline.go (the outbox relay to the job queue and its
// workers), scouting.go (a flagged player's scouting). The moderators'
// side, package server/moderation (their sessions, the flags API and
// review actions, the /moderator page), is mounted by mount.go; the
// /metrics guard, which also takes the moderator token, is in
// metrics.go.
//
// Challenges: package server/challenges (challenges between accounts,
// through the store's inboxes, and the daily challenge, a tournament
// made by the first request of the day), mounted by mount.go.
//
// Cross-cutting: errors.go (the error-to-code table), limit.go
// (per-client limits, socket counts), outage.go (a store outage logged
// once), tasks.go (background goroutines Close waits for), metrics.go,
// headers.go, codes.go (room codes, tokens, ids, from
// server/internal/codes).
package server
