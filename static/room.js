// The room page: one WebSocket, the latest server view rendered by
// version. Moves are sent with a sequence number and resent after a
// reconnect until acknowledged; the page never changes the board itself,
// it only draws the server's view (so no move is ever applied twice).
//
// This module takes the server's messages and draws each view; the page's
// parts are drawn by their own modules, which keep everything mutable in
// room-state.js:
//   room-state.js     the page's state, the seat, sending commands, redraw checks
//   room-controls.js  the waiting room: seats, ready, start, bots, the invitation
//   room-play.js      the player's board, its keys, hints, the hole clock
//   room-race.js      the race rail, the others' boards, reactions
//   room-moments.js   announcements, the flying card, celebrations, the hole summary, sound
//   room-end.js       scores, the round's result and chart, the replays
import './prefs.js';
import { $, say } from './dom.js';
import { t, num } from './i18n.js';
import { errorText, dropSeat } from './api.js';
import { openSocket } from './socket.js';
import { viewTracker } from './patch.js';
import { store } from './store.js';
import { root, code, state, banner, send, gone, checkRedraws } from './room-state.js';
import { announce, flyFrom, flyTo, moments, summaryBest } from './room-moments.js';
import { setPendingMove, showHint, renderPlay } from './room-play.js';
import { showReaction, renderRace, renderBoards } from './room-race.js';
import { renderScores, renderEnd, renderReplay } from './room-end.js';
import { renderDeal, renderWaiting } from './room-controls.js';

// The view the socket was sent last: events carry patches of it.
const views = viewTracker(() => state.socket.send({ type: 'resync' }));

function handle(m) {
  const view = views.take(m);
  switch (m.type) {
    case 'welcome':
      views.reset();
      state.you = typeof m.seat === 'number' ? m.seat : -1;
      // Continue above the seat's last applied seq (another device, cleared storage).
      if (typeof m.lastSeq === 'number' && m.lastSeq >= state.seq) state.seq = m.lastSeq;
      banner('');
      for (const c of state.pending.values()) state.socket.send(c);
      break;
    case 'snapshot':
      show(m.v, view);
      break;
    case 'event':
      if (view && m.v > state.lastV) {
        const before = state.view;
        const from = m.event && m.event.seat === state.you ? flyFrom(m.event) : null;
        // Someone else's move (a fast bot's, say) is drawn within 60 ms,
        // together with any that follow; everything else at once.
        const other = m.event?.kind === 'move' && m.event.seat !== state.you && !(m.event.notices || []).length;
        show(m.v, view, !other);
        announce(m.event);
        if (from) flyTo(from);
        moments(before, state.view, m.event);
      }
      break;
    case 'reaction':
      showReaction(m.seat, m.reaction);
      break;
    case 'ack': {
      const cmd = state.pending.get(m.seq);
      if (cmd?.type === 'hint') showHint(m.move || '');
      state.pending.delete(m.seq);
      if (m.seq === state.pendingMove) setPendingMove(0);
      break;
    }
    case 'error': {
      const cmd = state.pending.get(m.seq);
      state.pending.delete(m.seq);
      if (m.seq === state.pendingMove) setPendingMove(0);
      // Both players pressed rematch: the other's press already opened the
      // new round's waiting room, so this press means "ready".
      if (cmd?.type === 'rematch' && (m.code === 'not_finished' || m.code === 'not_playing')) {
        if (state.view?.status === 'waiting' && !state.view.seats?.[state.you]?.ready) send({ type: 'ready', ready: true });
        return;
      }
      if (cmd?.type === 'leave') state.leaving = false;
      if (cmd?.type === 'ready' && m.code === 'no_change') return;
      if (cmd?.type === 'react') return; // a reaction too soon is simply dropped
      if (m.code === 'bad_token') { dropSeat(code); state.token = null; state.socket.reconnect(); return; }
      // The seat is gone: we left (back to the lobby), or the host removed
      // it, or the room released it (we stay, as a visitor).
      if (m.code === 'left') {
        dropSeat(code);
        state.token = null;
        state.pending.clear();
        if (state.leaving) { state.socket.stop(); location.assign('/'); return; }
        state.you = -1;
        say(t('room.removed'));
        $('#invite-error').textContent = t('room.removed');
        state.socket.reconnect();
        return;
      }
      if (m.code === 'room_not_found') { root.dataset.status = 'gone'; gone(t('conn.gone')); return; }
      if (m.code === 'no_spectators') { gone(errorText(m)); return; }
      say(t('play.rejected', { msg: m.message || m.code }));
      $('#outcome').textContent = t('play.rejected', { msg: m.message || m.code });
      render();
      break;
    }
  }
}

// ---- rendering ----------------------------------------------------------

export function show(v, vw, now = true) {
  if (!vw || v < state.lastV) return;
  state.lastV = v;
  state.view = vw;
  if (typeof vw.you === 'number') state.you = vw.you;
  if (!now) {
    state.renderTimer ||= setTimeout(() => { state.renderTimer = 0; render(); }, 60);
    return;
  }
  clearTimeout(state.renderTimer);
  state.renderTimer = 0;
  render();
}

function render() {
  const vw = state.view;
  if (!vw) return;
  state.checking = store.flag('golf.checkRedraw');
  const s = vw.settings;
  root.dataset.status = vw.status;
  root.dataset.v = String(state.lastV);
  root.dataset.you = String(state.you);
  const playing = vw.status !== 'waiting' && !!vw.board && state.you >= 0;
  // The play layout stays while the player's board shows, the round's end
  // included (going back to the site's layout made the board jump).
  document.body.classList.toggle('in-play', vw.status === 'playing' || playing);
  $('#room-status').textContent = t('status.' + vw.status);
  $('#room-hole').textContent = vw.hole ? '· ' + t('room.hole', { h: num(vw.hole), n: num(s.holes) }) : '';
  // The compact header: "Golf · Hole 2 of 9 · Stroke play".
  const title = [t('game.' + s.game), vw.hole ? t('room.hole', { h: num(vw.hole), n: num(s.holes) }) : t(s.holes === 1 ? 'room.holes1' : 'room.holesN', { n: num(s.holes) }), t('format.' + s.format)].join(' · ');
  $('#room-title').textContent = title;
  document.title = `${vw.status === 'finished' ? t('status.finished') + ' · ' : ''}${title} · ${t('site.name')}`;
  root.classList.toggle('has-board', playing);
  renderDeal(vw);
  // A tournament room links back to its tournament.
  $('#back-tournament-line').hidden = !vw.tournament;
  if (vw.tournament) $('#back-tournament').href = '/t/' + encodeURIComponent(vw.tournament);
  renderWaiting(vw);
  renderPlay(vw);
  renderRace(vw);
  renderBoards(vw);
  renderScores(vw);
  renderEnd(vw);
  renderReplay(vw);
  summaryBest(vw);
  checkRedraws();
}

// The page's one socket (socket.js), opened last, once every module's
// handlers are in place.
banner(t('conn.connecting'), true);
state.socket = openSocket({
  path: () => '/ws',
  hello: () => {
    const hello = { type: 'hello', protocol: 2, room: code, since: state.lastV };
    if (state.token) hello.token = state.token;
    return hello;
  },
  onMessage: handle,
  onDown: () => banner(t('conn.reconnecting')),
});
