// Watching a room as any spectator does, for the TV and the home page's
// featured game: a spectator's socket (socket.js) whose views (patch.js)
// carry the settled boards only (docs/fairplay.md), drawn with the room
// page's board code (board.js).
import { h } from './dom.js';
import { renderBoard, waitText, foundationGame } from './board.js';
import { openSocket } from './socket.js';
import { viewTracker } from './patch.js';


// watchRoom opens a spectator's socket to the room: onView(view) gets
// every view as it changes; onGone(code) once the room is gone or may not
// be watched (the socket is stopped then); preview marks a small preview
// (the home page's), not counted among the room's watchers. It returns
// {stop}.
export function watchRoom(code, { onView, onGone = () => {}, preview = false }) {
  let lastV = 0;
  let socket = null;
  const views = viewTracker(() => socket?.send({ type: 'resync' }));
  socket = openSocket({
    path: () => '/ws',
    // A spectator's hello: no token. Every (re)connection starts from a
    // whole view.
    // A preview (the home page's) is not counted among the watchers.
    hello: () => ({ type: 'hello', protocol: 2, room: code, since: 0, ...(preview ? { preview: true } : {}) }),
    onMessage: (m) => {
      if (m.type === 'welcome') { views.reset(); return; }
      if (m.type === 'error') {
        if (m.code === 'room_not_found' || m.code === 'no_spectators' || m.code === 'crowded') { socket.stop(); onGone(m.code); }
        return;
      }
      const view = views.take(m);
      if (!view || (m.v && m.v < lastV)) return;
      lastV = m.v || view.v || lastV;
      onView(view);
    },
  });
  return { stop: () => socket.stop() };
}


// settledBoards draws every seat's settled board with its name (and, with
// waits, why it is behind): what the room page shows a spectator.
export function settledBoards(vw, { waits = true } = {}) {
  const foundation = foundationGame(vw.settings);
  const rows = new Map((vw.standings?.rows || []).map((r) => [r.seat, r]));
  return (vw.boards || []).map((b) => {
    const name = vw.seats?.[b.seat]?.name || '?';
    const row = rows.get(b.seat);
    return h('div', { 'data-testid': 'watch-seat-' + b.seat },
      h('h3', {}, name, row?.toParText ? ' ' + row.toParText : ''),
      waits && b.wait ? h('p', { class: 'wait', 'data-testid': 'wait-' + b.seat }, waitText(b.wait, vw)) : null,
      renderBoard(b, { label: name, foundation }));
  });
}

// playersText names a game's players: "Ana · Bo".
export const playersText = (names) => (names || []).join(' · ');
