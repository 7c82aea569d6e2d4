// The room page: one WebSocket, the latest server view rendered by
// version. Moves are sent with a sequence number and resent after a
// reconnect until acknowledged; the page never changes the board itself,
// it only draws the server's view (so no move is ever applied twice).
import './prefs.js';
import { $, $$, h, svg, say } from './dom.js';
import { t, num, signed, cardName } from './i18n.js';
import { api, errorText, normalizeCode, saveSeat, loadSeat, dropSeat, loadName, saveName } from './api.js';
import { renderBoard } from './board.js';
import { sfx, soundOn, setSound } from './sound.js';
import { listText, resultText, matchText } from './words.js';
import { heldTag } from './held.js';
import { openSocket } from './socket.js';
import { viewTracker } from './patch.js';
import { replayPlayer } from './replay.js';
import { scorecard, scoreMark, parClass } from './scorecard.js';
import { store } from './store.js';
import { place } from './spot.js';
import { showReview } from './review.js';

const root = $('#room');
const code = normalizeCode(root.dataset.code);
const watching = root.dataset.watch === 'true';
const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

// Everything the page keeps between the server's messages.
const state = {
  token: watching ? null : loadSeat(code)?.token || null, // the seat token (none: watching)
  lastV: 0, // the version of the view drawn
  view: null, // the server's latest view
  you: -1, // our seat (-1: watching)
  seq: Date.now(), // the last command's sequence number
  pending: new Map(), // seq -> command, resent after reconnect until acked
  pendingMove: 0, // seq of the move waiting for its ack
  leaving: false, // we asked to leave the room
  autoStarted: 0, // the round solo practice was started for
  hostReady: 0, // the round the host of an auto-starting room said ready for
  fly: null, // the card flying to the waste
  lastRun: 0, // the run at the last event, for its celebration
  summaryTimer: 0,
  summaryHole: 0, // the hole the open summary is about
  toastTimer: 0,
  hintFor: '', // the board (hole:moves) the hint asked is for
  focusedMove: null, // the card with the keyboard focus
  renderTimer: 0,
  endDismissed: 0, // the round whose result the player closed
  clockTimer: 0,
  tipShown: store.flag('golf.tip.king'), // the king tip is shown once
  tipFor: '', // the board (hole:moves) the king tip is shown on
  spaceTaken: false, // Space's keydown turned the stock: its keyup presses nothing
  replayOpen: false, // a replay opened from the scorecard during play
  replayRound: 0, // the round the replay pickers are for
  replayTried: false, // the end-of-round replay was opened
  holePicked: false, // the player chose a hole in the picker
  drawn: new Map(), // element -> the inputs it was drawn from (stale)
  checking: false, // golf.checkRedraw: stale draws every part again (tests)
  checks: [], // the parts drawn again from unchanged inputs in this render
};

// ---- connection -------------------------------------------------------

function banner(text, ok = false) {
  const b = $('#banner');
  b.hidden = !text;
  b.textContent = text || '';
  b.classList.toggle('ok', ok);
  root.dataset.conn = text ? 'down' : 'up';
}

function send(cmd) {
  const m = { ...cmd, seq: ++state.seq };
  state.pending.set(m.seq, m);
  socket.send(m);
  return m.seq;
}

// gone stops the page's socket for good, saying why.
function gone(text) {
  banner(text);
  socket.stop();
}

// The view the socket was sent last: events carry patches of it.
const views = viewTracker(() => socket.send({ type: 'resync' }));

function handle(m) {
  const view = views.take(m);
  switch (m.type) {
    case 'welcome':
      views.reset();
      state.you = typeof m.seat === 'number' ? m.seat : -1;
      // Continue above the seat's last applied seq (another device, cleared storage).
      if (typeof m.lastSeq === 'number' && m.lastSeq >= state.seq) state.seq = m.lastSeq;
      banner('');
      for (const c of state.pending.values()) socket.send(c);
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
      if (m.code === 'bad_token') { dropSeat(code); state.token = null; socket.reconnect(); return; }
      // The seat is gone: we left (back to the lobby), or the host removed
      // it, or the room released it (we stay, as a visitor).
      if (m.code === 'left') {
        dropSeat(code);
        state.token = null;
        state.pending.clear();
        if (state.leaving) { socket.stop(); location.assign('/'); return; }
        state.you = -1;
        say(t('room.removed'));
        $('#invite-error').textContent = t('room.removed');
        socket.reconnect();
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

// ---- announcements ----------------------------------------------------

const who = (s) => (state.view?.seats?.[s]?.name ?? '?');

function announce(ev) {
  if (!ev) return;
  const parts = [];
  if (ev.kind === 'move' && ev.move) {
    const mine = ev.seat === state.you;
    if (ev.move === 'r') parts.push(t('play.redealt'));
    else if (ev.move === 'u') parts.push(t('play.undone'));
    else if (ev.card && (mine || state.you < 0)) {
      const card = cardName(ev.card);
      const turn = ev.move === 's';
      parts.push(mine ? t(turn ? 'play.youTurned' : 'play.youPlayed', { card }) : t(turn ? 'play.turned' : 'play.played', { who: who(ev.seat), card }));
    }
  } else if (ev.kind === 'join' && ev.name) parts.push(t('play.joined', { who: ev.name }));
  else if (ev.kind === 'ready' && ev.ready) parts.push(t('play.isReady', { who: who(ev.seat) }));
  for (const n of ev.notices || []) {
    if (n.kind === 'seatDone') parts.push(t((n.seat || 0) === state.you ? 'play.youDone' : 'play.seatDone', { who: who(n.seat || 0), h: num(n.hole), score: num(n.score || 0) }));
    else if (n.kind === 'holeStarted') parts.push(t('play.holeStarted', { h: num(n.hole) }));
    else if (n.kind === 'roundEnded') parts.push(t('play.roundEnded') + ': ' + resultText(state.view));
    else if (n.kind === 'started') parts.push(t('play.started'));
  }
  if (parts.length) say(parts.join('. '));
}

// ---- motion: the card flying to the waste, the stock's turn ------------
//
// Web Animations, quick and interruptible; none at all when the player
// asks for reduced motion.

function flyFrom(ev) {
  if (reduceMotion.matches || !ev.move) return null;
  const sel = ev.move === 's' ? '#my-board .stock .card' : /^\d+$/.test(ev.move) ? `#my-board [data-move="${ev.move}"] .card` : null;
  const el = sel && $(sel);
  return el ? { rect: el.getBoundingClientRect(), turn: ev.move === 's' } : null;
}

function flyTo(from) {
  const target = $('#my-board .waste .card');
  if (!target) return;
  state.fly?.cancel();
  const to = target.getBoundingClientRect();
  const clone = target.cloneNode(true);
  clone.classList.add('fly');
  clone.removeAttribute('aria-label');
  clone.setAttribute('aria-hidden', 'true');
  for (const [k, v] of Object.entries({ left: to.left + 'px', top: to.top + 'px', width: to.width + 'px' })) clone.style.setProperty(k, v);
  document.body.append(clone);
  target.style.setProperty('visibility', 'hidden');
  const dx = from.rect.left - to.left;
  const dy = from.rect.top - to.top;
  const s = from.rect.width / to.width;
  const frames = from.turn
    // The stock's card turns over on its way: a flip about its upright axis.
    ? [{ transform: `translate(${dx}px, ${dy}px) scale(${s}) rotateY(90deg)` }, { transform: `translate(${dx / 2}px, ${dy / 2}px) rotateY(45deg)`, offset: 0.4 }, { transform: 'none' }]
    : [{ transform: `translate(${dx}px, ${dy}px) scale(${s}) rotate(-4deg)`, boxShadow: '0 12px 24px #0006' }, { transform: 'none', boxShadow: '0 1px 2px #0003' }];
  state.fly = clone.animate(frames, { duration: from.turn ? 200 : 230, easing: 'cubic-bezier(.2,.8,.3,1)' });
  const done = () => { clone.remove(); target.style.removeProperty('visibility'); state.fly = null; };
  state.fly.onfinish = done;
  state.fly.oncancel = done;
}

// ---- moments: hole summary, celebrations, the round's result ----------


function toast(text, kind) {
  const el = $('#toast');
  clearTimeout(state.toastTimer);
  el.replaceChildren(h('span', { class: 'toast-text' }, text));
  if (kind === 'holed' && !reduceMotion.matches) {
    // A burst of suits from the middle of the board.
    const burst = h('span', { class: 'burst', 'aria-hidden': 'true' });
    for (let i = 0; i < 14; i++) {
      const p = h('span', { class: 'spark ' + (i % 2 ? 'red' : '') }, '♣♦♥♠'[i % 4]);
      p.style.setProperty('--a', `${(360 / 14) * i}deg`);
      p.style.setProperty('--d', `${90 + (i % 3) * 30}px`);
      burst.append(p);
    }
    el.append(burst);
  }
  el.dataset.kind = kind;
  el.hidden = false;
  // Beside the cards, never over them (nor over the round's result).
  for (const k of ['width', 'left', 'top', 'max-height']) el.style.removeProperty(k);
  el.style.setProperty('left', '0');
  const w = Math.ceil(el.querySelector('.toast-text').getBoundingClientRect().width);
  el.style.setProperty('transform', 'none');
  place(el, { minW: w, maxW: w, centre: true });
  // A run's bubble gives way to the round's result; holing out the last
  // hole is still celebrated, beneath the result card.
  if (!$('#end').hidden && kind !== 'holed') el.hidden = true;
  state.toastTimer = setTimeout(() => { el.hidden = true; }, kind === 'holed' ? 2200 : 1500);
}

// moments compares the state.view before an event with the one after it and
// marks what happened: a long run, holing out, the end of a hole for
// everyone (the summary) and of the round.
function moments(before, after, ev) {
  if (!after) return;
  const b = after.board;
  const was = before?.board;
  if (b && was && b.hole === was.hole && ev?.seat === state.you) {
    if (ev.kind === 'move' && /^\d+$/.test(ev.move || '')) sfx('play', b.run);
    if (ev.kind === 'move' && ev.move === 's') sfx('turn');
    if (b.run >= 5 && b.run > state.lastRun && (b.run === 5 || b.run === 8 || b.run % 5 === 0) && !b.cleared) {
      toast(t('moment.run', { n: num(b.run) }), 'run');
      say(t('moment.run', { n: num(b.run) }));
    }
    if (b.cleared && !was.cleared) {
      toast(t('play.holedOut'), 'holed');
      sfx('holed');
    }
  }
  state.lastRun = b ? b.run : 0;
  for (const n of ev?.notices || []) {
    if (n.kind === 'holeStarted' && n.hole > 1) showSummary(after, n.hole - 1);
    if (n.kind === 'roundEnded') { hideSummary(); sfx('end'); }
  }
}

function hideSummary() {
  clearTimeout(state.summaryTimer);
  $('#hole-summary').hidden = true;
}

// showSummary puts the hole's scores over the board for a few seconds:
// every player's score, the running totals, who leads and the best
// possible score of the hole (only once everyone has finished it).
function showSummary(vw, hole) {
  const st = vw.standings;
  if (!st || vw.settings.seats === 1 && !st.rows[0]) return;
  const best = (vw.best || []).find((x) => x.hole === hole);
  const rows = [...st.rows].map((r) => {
    const sc = r.scores[hole - 1];
    return h('tr', { 'data-testid': 'summary-row-' + r.seat },
      h('th', { scope: 'row' }, r.name, r.seat === state.you ? h('span', { class: 'tag' }, t('room.you')) : null),
      h('td', {}, sc === null || sc === undefined ? '·' : scoreMark(sc, 5)),
      h('td', {}, num(r.total)), h('td', { class: parClass(r.toPar) }, r.toParText));
  });
  const leaders = st.rows.filter((r) => r.place === 1).map((r) => r.name);
  const lead = st.match ? matchText(st) : leaders.length > 1 ? t('summary.tied', { who: listText(leaders) }) : t('summary.leads', { who: leaders[0] || '?' });
  $('#summary-title').textContent = t('summary.title', { h: num(hole) });
  $('#summary-body').replaceChildren(...[
    h('table', { class: 'summary-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('score.player')), h('th', { scope: 'col' }, t('summary.hole', { h: num(hole) })), h('th', { scope: 'col' }, t('score.total')), h('th', { scope: 'col' }, t('score.toPar')))),
      h('tbody', {}, rows)),
    h('p', { class: 'lead', 'data-testid': 'summary-lead' }, lead),
    best ? bestLine(hole, best) : null,
    h('p', { class: 'note', 'data-testid': 'summary-next' }, t('summary.next', { h: num(hole + 1) }))].filter(Boolean));
  state.summaryHole = hole;
  $('#hole-summary').hidden = false;
  placeSummary();
  clearTimeout(state.toastTimer);
  $('#toast').hidden = true; // a celebration of the hole just over gives way
  say($('#summary-title').textContent + '. ' + lead);
  clearTimeout(state.summaryTimer);
  state.summaryTimer = setTimeout(hideSummary, 7000);
}
$('#summary-close').addEventListener('click', hideSummary);

// placeSummary keeps the open summary beside the cards of the hole in
// play, never over them: that hole is live, and its cards take clicks.
function placeSummary() {
  if ($('#hole-summary').hidden) return;
  place($('#hole-summary .moment-card'), { minW: 260, maxW: 440 });
}
window.addEventListener('resize', placeSummary);
window.addEventListener('scroll', placeSummary, { passive: true });

function bestLine(hole, best) {
  return h('p', { class: 'note', 'data-testid': 'summary-best' }, t('end.bestHole', { h: num(hole), best: num(best.best) + (best.exact ? '' : '≥') }));
}

// summaryBest adds the hole's best possible score to an open summary when
// the solver's answer comes after the summary opened.
function summaryBest(vw) {
  if ($('#hole-summary').hidden || $('[data-testid=summary-best]')) return;
  const best = (vw.best || []).find((x) => x.hole === state.summaryHole);
  if (best) $('[data-testid=summary-next]').before(bestLine(state.summaryHole, best));
  placeSummary();
}

// Reactions: a preset message, shown for a moment beside its sender.
const reactTimers = new Map();
function showReaction(seat, id) {
  if (typeof seat !== 'number' || !id) return;
  const text = t('react.' + id);
  const name = who(seat);
  say(t('react.said', { who: name, text }));
  const li = $(`#race [data-seat="${seat}"]`);
  const where = li || $('#reactions');
  if (!where) return;
  where.querySelector('.bubble')?.remove();
  const bubble = h('span', { class: 'bubble', 'data-testid': 'bubble-' + seat, 'aria-hidden': 'true' }, li ? text : `${name}: ${text}`);
  where.append(bubble);
  clearTimeout(reactTimers.get(seat));
  reactTimers.set(seat, setTimeout(() => bubble.remove(), 4000));
}
$('#reactions').addEventListener('click', (e) => {
  const b = e.target.closest('[data-react]');
  if (!b || state.you < 0) return;
  send({ type: 'react', reaction: b.dataset.react });
});

// ---- commands ---------------------------------------------------------

function board() { return state.view?.board || null; }

// setPendingMove notes the move waiting for its ack (0: none); the page
// takes no other move meanwhile. data-pending says so (for the tests).
function setPendingMove(seq) {
  state.pendingMove = seq;
  root.dataset.pending = seq ? 'true' : 'false';
  // A refused move leaves the board as it was, and it is not redrawn.
  if (!seq) for (const el of $$('#my-board .pending')) el.classList.remove('pending');
}

function move(mv) {
  const b = board();
  if (!b || b.done || state.pendingMove || state.view?.status !== 'playing') return;
  if (/^\d+$/.test(mv) && !(b.playable || []).includes(Number(mv))) { if (b.playable?.length === 0 && b.canTurn) nudgeStock(); return; }
  if (mv === 's' && !b.canTurn) return;
  if (mv === 'r' && !b.canRedeal) return;
  if (mv === 'u' && !b.canUndo) return;
  state.fly?.finish();
  hideSummary();
  setPendingMove(send({ type: 'move', hole: b.hole, move: mv }));
  const el = $(`#my-board [data-move="${mv}"]`);
  el?.classList.add('pending');
}

// nudgeStock draws the eye to the stock when a card that cannot play is
// pressed and turning is the only move.
function nudgeStock() {
  const s = $('#my-board .stock .card');
  if (!s || reduceMotion.matches) return;
  s.animate([{ transform: 'none' }, { transform: 'translateY(-6px)' }, { transform: 'none' }], { duration: 260 });
}

// A tap anywhere on a column's visible strip of cards plays its free card.
$('#my-board').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-move]') || e.target.closest('.pile')?.querySelector('[data-move]');
  if (btn) move(btn.dataset.move);
});
$('#undo').addEventListener('click', () => move('u'));
$('#hint').addEventListener('click', askHint);
$('#redeal').addEventListener('click', () => move('r'));
// Standing ends the hole: asked in the page (a dialog), unless no move is
// left anyway.
$('#stand').addEventListener('click', () => {
  const b = board();
  if (!b || b.done) return;
  if (b.over) { send({ type: 'stand', hole: b.hole }); return; }
  const d = $('#stand-dialog');
  d.returnValue = '';
  d.dataset.hole = String(b.hole);
  d.showModal();
});
$('#stand-dialog').addEventListener('close', () => {
  const d = $('#stand-dialog');
  const b = board();
  if (d.returnValue === 'stand' && b && !b.done && String(b.hole) === d.dataset.hole) send({ type: 'stand', hole: b.hole });
  $('#stand').focus({ preventScroll: true });
});
$('#help-btn').addEventListener('click', toggleHelp);
$('#sound').addEventListener('click', () => {
  setSound(!soundOn());
  $('#sound').setAttribute('aria-pressed', String(soundOn()));
  if (soundOn()) sfx('turn');
});
$('#sound').setAttribute('aria-pressed', String(soundOn()));
// Hints, in solo practice only: the server suggests a move from what the
// player sees (never the stock's order).
function askHint() {
  const b = board();
  if (!b || b.done || state.view?.settings?.seats !== 1) return;
  state.hintFor = `${b.hole}:${b.moves}`;
  send({ type: 'hint', hole: b.hole });
}
function showHint(mv) {
  const b = board();
  if (!b || `${b.hole}:${b.moves}` !== state.hintFor) return; // the board moved on
  const what = !mv ? t('play.hintNone') : mv === 's' ? t('play.hintTurn') : mv === 'r' ? t('play.hintRedeal') : t('play.hintPile', { n: mv });
  const text = mv ? t('play.hintMove', { move: what }) : what;
  $('#hint-text').textContent = text;
  $('#hint-text').dataset.move = mv;
  say(text);
  for (const el of $$('#my-board [data-move]')) el.classList.toggle('hinted', el.dataset.move === mv);
}

function toggleHelp() {
  const help = $('#help');
  help.hidden = !help.hidden;
  $('#help-btn').setAttribute('aria-expanded', String(!help.hidden));
}

// keyHelp lists the keys that do something in this room.
function keyHelp(vw) {
  const s = vw.settings;
  const o = s.options || {};
  const n = vw.board?.piles?.length || 0;
  const items = [];
  if (n) items.push(t('keys.piles', { last: n >= 10 ? '0' : num(n) }));
  if (!foundationGame(s)) items.push(t('keys.space'));
  if (o.redeals) items.push(t('keys.redeal'));
  if (o.undo) items.push(t('keys.undo'));
  if (s.seats === 1) items.push(t('keys.hint'));
  items.push(t('keys.arrows'), t('keys.enter'), t('keys.help'));
  return items.join(' · ');
}

function foundationGame(s) { return s.game === 'black-hole' || s.game === 'all-in-a-row'; }

$('#ready').addEventListener('click', () => {
  const mine = state.view?.seats?.[state.you];
  send({ type: 'ready', ready: !(mine && mine.ready) });
});
$('#start').addEventListener('click', () => send({ type: 'start' }));
$('#leave').addEventListener('click', () => { state.leaving = true; send({ type: 'leave' }); });
$('#seats').addEventListener('click', (e) => {
  const b = e.target.closest('[data-kick]');
  if (b && state.you === 0) send({ type: 'kick', seat: Number(b.dataset.kick) });
});
$('#bot-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('#bot-error').textContent = '';
  try {
    await api(`/api/rooms/${encodeURIComponent(code)}/bots`, { method: 'POST', body: { token: state.token, level: $('#bot-level').value } });
  } catch (err) { $('#bot-error').textContent = errorText(err); say(errorText(err)); }
});
$('#rematch').addEventListener('click', () => {
  if (state.view?.status === 'waiting') { if (!state.view.seats?.[state.you]?.ready) send({ type: 'ready', ready: true }); return; }
  $('#rematch').disabled = true;
  send({ type: 'rematch' });
});
$('#end-close').addEventListener('click', () => { state.endDismissed = state.view?.round || 0; $('#end').hidden = true; $('#scores').scrollIntoView({ block: 'start' }); });
$('#to-replays').addEventListener('click', () => {
  state.endDismissed = state.view?.round || 0;
  $('#end').hidden = true;
  const r = $('#replay');
  r.scrollIntoView({ block: 'start', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  ($('#replay-player').hidden ? $('#replay-seat') : $('#replay-player')).focus({ preventScroll: true });
});
$('#copy-link').addEventListener('click', async () => {
  const link = $('#invite-link');
  try { await navigator.clipboard.writeText(link.value); } catch { link.select(); document.execCommand?.('copy'); }
  say(t('room.copied'));
  $('#copy-link').textContent = t('room.copied');
  setTimeout(() => { $('#copy-link').textContent = t('room.copy'); }, 2000);
});
$('#seat-name').value = loadName();
$('#invite-name').value = loadName();
async function takeSeat(name, errBox) {
  saveName(name);
  try {
    const grant = await api('/api/rooms/' + encodeURIComponent(code) + '/join', { method: 'POST', body: { name } });
    saveSeat(grant);
    state.token = grant.token;
    if (watching) { location.assign('/r/' + encodeURIComponent(grant.code)); return; }
    state.lastV = 0;
    socket.reconnect();
  } catch (err) { say(errorText(err)); errBox.textContent = errorText(err); }
}
$('#seat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('#seat-name').value.trim();
  if (!name) { $('#seat-name').focus(); return; }
  takeSeat(name, $('#settings-summary'));
});
$('#invite-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('#invite-name').value.trim();
  if (!name) { $('#invite-error').textContent = t('home.errName'); $('#invite-name').focus(); return; }
  $('#invite-error').textContent = '';
  takeSeat(name, $('#invite-error'));
});

// Keyboard: 1-9 and 0 play a pile, Space turns the stock (wherever the
// focus is on the play screen: a focused card or button is pressed with
// Enter), R redeals, U undoes, H hints, ? shows help, arrows move focus
// between the cards, Escape closes the hole summary. Text fields, dialogs,
// the replay and the round's result keep their keys.
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.target.closest?.('dialog')) return;
  if (e.key === 'Escape' && !$('#hole-summary').hidden) { hideSummary(); return; }
  if (e.key === '?') { toggleHelp(); e.preventDefault(); return; }
  if (e.target.closest?.('#replay, #end')) return;
  const b = board();
  if (!b || $('#play').hidden || state.view?.status !== 'playing') return;
  if (/^[0-9]$/.test(e.key)) { move(String(e.key === '0' ? 10 : Number(e.key))); e.preventDefault(); return; }
  if (e.key === ' ') { state.spaceTaken = true; move('s'); e.preventDefault(); return; }
  if (e.key === 'r' || e.key === 'R') { move('r'); e.preventDefault(); return; }
  if (e.key === 'u' || e.key === 'U') { move('u'); e.preventDefault(); return; }
  if ((e.key === 'h' || e.key === 'H') && !$('#hint').hidden) { askHint(); e.preventDefault(); return; }
  if (e.key.startsWith('Arrow')) {
    const cards = $$('#my-board [data-move]');
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const step = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 1;
    const next = cards[(i < 0 ? 0 : i + step + cards.length) % cards.length];
    focusCard(next);
    e.preventDefault();
  }
});
// A focused card or button would take Space's keyup as a press: Space
// turned the stock instead (above), so its keyup is dropped.
document.addEventListener('keyup', (e) => {
  if (e.key === ' ' && state.spaceTaken) { state.spaceTaken = false; e.preventDefault(); }
});

function focusCard(el) {
  for (const c of $$('#my-board [data-move]')) c.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
  state.focusedMove = el.dataset.move;
}

// ---- rendering ----------------------------------------------------------

function show(v, vw, now = true) {
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

// settingsText sums up the room's settings in words: the game, the rules
// that differ from plain play, holes, format and seats.
function settingsText(s) {
  const o = s.options || {};
  const rules = [];
  if (o.kings) rules.push(t('set.kings.' + o.kings));
  if (o.freeStart) rules.push(t('set.freeStart'));
  if (o.jokers) rules.push(`${t('set.jokers')}: ${num(o.jokers)}`);
  if (o.columns) rules.push(`${t('set.columns')}: ${num(o.columns)}`);
  if (o.redeals) rules.push(t('set.redeals'));
  if (o.negativeScore) rules.push(t('set.negativeScore'));
  if (s.holeClock) rules.push(`${t('set.holeClock')}: ${num(s.holeClock)}`);
  if (s.suddenDeath) rules.push(t('set.suddenDeath'));
  const head = [t('game.' + s.game), `${t('set.holes')}: ${num(s.holes)}`, t('set.format.' + s.format)];
  if (s.format !== 'match') head.push(`${t('set.seats')}: ${num(s.seats)}`);
  return head.join(' · ') + (rules.length ? '. ' + t('set.options') + ': ' + rules.join('; ') + '.' : '');
}

// roomWhat is the room in a phrase: "3 holes of Golf, stroke play".
function roomWhat(s) {
  return t(s.holes === 1 ? 'room.what1' : 'room.whatN', { n: num(s.holes), game: t('game.' + s.game), format: t('format.' + s.format).toLowerCase() });
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

// Numbered and daily practice deals: the deal of the hole in play (hole h
// is deal N+h-1) and a link that starts the same deal.
function renderDeal(vw) {
  const s = vw.settings;
  const diff = $('#room-difficulty');
  // The server rates a deal once its hole is over (the rating would tell
  // what the stock holds): shown whenever the state.view carries it.
  diff.hidden = !vw.difficulty;
  diff.textContent = vw.difficulty ? '· ' + t('room.difficulty', { level: t('difficulty.' + vw.difficulty) }) : '';
  diff.dataset.level = String(vw.difficulty || 0);
  const el = $('#room-deal');
  if (!s.deal) { el.hidden = true; return; }
  const n = s.deal + Math.max(1, vw.hole || 1) - 1;
  const q = new URLSearchParams({ deal: String(n), game: s.game });
  for (const [k, v] of Object.entries(s.options || {})) if (k !== 'undo') q.set(k, String(v));
  el.hidden = false;
  el.replaceChildren('· ', s.daily ? t('room.daily', { n: String(n) }) : t('room.deal', { n: String(n) }), ' ',
    h('a', { href: '/practice?' + q, 'data-testid': 'deal-link' }, t('room.dealLink')));
}

function renderWaiting(vw) {
  const s = vw.settings;
  const sec = $('#waiting');
  const free = vw.seats.length < s.seats;
  // A visitor with no seat, while a seat is free: the invitation.
  const invited = vw.status === 'waiting' && state.you < 0 && !watching && free;
  $('#invitation').hidden = !invited;
  if (invited) {
    const host = vw.seats[0]?.name;
    $('#invite-title').textContent = host ? t('room.invites', { who: host, what: roomWhat(s) }) : t('room.invitesNoHost', { what: roomWhat(s) });
    $('#invite-settings').textContent = settingsText(s);
  }
  sec.hidden = vw.status !== 'waiting' || invited;
  if (sec.hidden) return;
  $('#invite-link').value = location.origin + '/r/' + code;
  $('#waiting-what').textContent = roomWhat(s);
  $('#settings-summary').textContent = settingsText(s);
  const list = $('#seats');
  list.replaceChildren();
  const seatsMove = vw.round === 1 && !vw.tournament;
  for (let i = 0; i < s.seats; i++) {
    const seat = vw.seats[i];
    if (!seat) { list.append(h('li', { class: 'note', 'data-testid': 'seat-' + i }, t('room.emptySeat'))); continue; }
    list.append(h('li', { 'data-testid': 'seat-' + i, 'data-ready': String(seat.ready) },
      h('strong', {}, seat.name),
      i === 0 ? h('span', { class: 'tag' }, t('room.host')) : null,
      i === state.you ? h('span', { class: 'tag' }, t('room.you')) : null,
      seat.bot ? h('span', { class: 'tag' }, t('room.bot')) : null,
      seat.away ? h('span', { class: 'tag' }, t('room.away')) : null,
      i === 0 ? null : h('span', { class: 'tag' + (seat.ready ? ' ready' : '') }, seat.ready ? '✓ ' + t('room.ready') : '… ' + t('room.notReady')),
      // The host may remove a seat before the first round.
      seatsMove && state.you === 0 && i > 0
        ? h('button', { type: 'button', class: 'small quiet', 'data-kick': i, 'data-testid': 'kick-' + i }, t('room.kick'), h('span', { class: 'sr-only' }, ' ' + seat.name))
        : null));
  }
  // Before the first round a player may give up the seat (not in
  // tournament rooms, whose seats are the entries).
  $('#leave').hidden = !seatsMove || state.you < 0;
  // Controls that match the room: guests toggle ready; the host starts,
  // as the main action only once every seat is taken and ready.
  const ready = $('#ready');
  const mine = vw.seats[state.you];
  ready.hidden = state.you <= 0;
  ready.textContent = mine?.ready ? '✓ ' + t('room.ready') : t('room.readyBtn');
  ready.setAttribute('aria-pressed', String(!!mine?.ready));
  const need = s.format === 'match' ? 2 : 1;
  const others = vw.seats.filter((x, i) => i > 0);
  const notReady = others.filter((x) => !x.ready).map((x) => x.name);
  const canStart = vw.seats.length >= need && !notReady.length;
  const start = $('#start');
  start.hidden = state.you !== 0;
  start.disabled = !canStart;
  start.classList.toggle('primary', canStart && !free);
  start.textContent = canStart && free ? t('room.startNow', { n: num(vw.seats.length) }) : t('room.start');
  const note = $('#host-note');
  const missing = s.seats - vw.seats.length;
  note.textContent = state.you < 0 && free && watching ? '' : state.you < 0 && !free ? t('room.full')
    : missing > 0 ? t(missing === 1 ? 'room.waitOne' : 'room.waitN', { n: num(missing) })
      : notReady.length ? t('room.waitReady', { who: listText(notReady) })
        : state.you === 0 ? t('room.allReady') : t('room.waitHost', { who: vw.seats[0]?.name || '?' });
  $('#seat-form').hidden = state.you >= 0 || !free || !watching;
  // The host may add bots to free seats (practice against the computer).
  $('#bot-form').hidden = state.you !== 0 || !free;
  // The host of a room that starts when everyone is ready is ready: the
  // guests' ready starts the first round (the host needs no Start).
  if (state.you === 0 && s.seats > 1 && s.autoStart && vw.round === 1 && !vw.tournament && mine && !mine.ready && state.hostReady !== vw.round) {
    state.hostReady = vw.round;
    send({ type: 'ready', ready: true });
  }
  // Solo practice starts at once.
  if (state.you === 0 && s.seats === 1 && state.autoStarted !== vw.round) { state.autoStarted = vw.round; send({ type: 'start' }); }
}

// fitBoard sizes the cards so the whole board fits the space it has: the
// width of the play area and the height of the window below the header.
function fitBoard() {
  const el = $('#my-board .board');
  if (!el) return;
  const b = board();
  const box = $('#my-board');
  const cs = getComputedStyle(el);
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const aw = box.clientWidth - padX;
  const top = box.getBoundingClientRect().top + window.scrollY;
  const phone = window.innerWidth < 700;
  // Room under the board for the outcome line and the buttons.
  const ah = window.innerHeight - (phone ? 0 : top) - (phone ? 0 : 96) - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  let cw;
  if (b.layout === 'columns') {
    const n = b.piles.length;
    const cols = n > 10 ? Math.ceil(n / 2) : n;
    const rows = n > 10 ? 2 : 1;
    const depth = Math.max(5, ...b.piles.map((p) => p.length));
    const gap = phone ? 3 : 8;
    const byW = (aw - gap * (cols - 1)) / cols;
    // Tableau: 1.4 a card plus 0.4 for each card under it; the pad: the
    // waste, 1.25 cards wide, and its label.
    const byH = (ah - 40) / (rows * (1.4 + 0.4 * (depth - 1)) + 1.25 * 1.4 + 0.3);
    cw = Math.max(30, Math.min(phone ? byW : Math.min(byW, byH), 150));
    el.style.setProperty('--gap', gap + 'px');
  } else {
    // Peaks: a card is 2/w of the width; the height is cw * (0.7 (rows-1) + 1.4).
    const geo = { 'pyramid-golf': [14, 7] }[b.layout] || [20, 4];
    const byW = (2 * aw) / geo[0] - 2;
    const byH = (ah - 40) / (0.7 * (geo[1] - 1) + 1.4 + 1.25 * 1.4 + 0.3);
    cw = Math.max(24, Math.min(phone ? byW : Math.min(byW, byH), 130));
    cw = Math.floor(cw);
    el.style.setProperty('--tw', ((cw + 2) * geo[0]) / 2 + 20 + 'px');
    el.style.setProperty('--pcw', cw + 'px');
  }
  el.style.setProperty('--cw', Math.floor(cw) + 'px');
  el.classList.add('fit');
}
window.addEventListener('resize', () => { if (!$('#play').hidden) fitBoard(); });


function renderPlay(vw) {
  const b = vw.board;
  const sec = $('#play');
  sec.hidden = !(b && state.you >= 0 && vw.status !== 'waiting');
  clearInterval(state.clockTimer);
  renderClock(vw);
  if (sec.hidden) return;
  const foundation = foundationGame(vw.settings);
  // Other players' moves redraw the page but not this board: a card
  // replaced between a press and its release would lose the click (and
  // the hint's mark and the focus with it).
  if (stale($('#my-board'), [b, vw.status, foundation])) {
    const hadFocus = sec.contains(document.activeElement) ? (document.activeElement.dataset.move || state.focusedMove) : null;
    // The outcome is said once, below the board (#outcome), not in it too.
    const el = renderBoard(b, { label: t('play.board'), interactive: vw.status === 'playing', foundation, outcome: false });
    $('#my-board').replaceChildren(el);
    fitBoard();
    const cards = $$('#my-board [data-move]');
    if (cards.length) {
      const keep = hadFocus && cards.find((c) => c.dataset.move === hadFocus);
      const first = keep || cards.find((c) => c.getAttribute('aria-disabled') === 'false') || cards[0];
      first.tabIndex = 0;
      if (keep) keep.focus({ preventScroll: true });
    }
  }
  // The stock pulses when turning it is the only move.
  const live = vw.status === 'playing' && !b.done && !b.over;
  $('#my-board .stock')?.classList.toggle('only-move', live && b.canTurn && !(b.playable || []).length);
  let msg = '';
  if (b.done || b.over) {
    msg = t(b.cleared || b.end === 'cleared' ? 'play.holedOut' : b.end === 'clock' ? 'play.timeUp' : b.end === 'away' ? 'play.awayEnd' : 'play.noMoves');
    if (b.done) msg += ' ' + t('play.yourScore', { score: num(b.score) });
    const still = vw.progress.filter((p) => !p.done && p.seat !== state.you).map((p) => vw.seats[p.seat]?.name || '?');
    if (b.done && vw.status === 'playing' && still.length) msg += ' ' + t('play.stillPlaying', { who: listText(still) });
  }
  $('#outcome').textContent = msg;
  root.dataset.board = b.done ? 'done' : b.over ? 'over' : 'live';
  root.dataset.hole = String(b.hole);
  // The one-time tip: in strict rules nothing plays on a king.
  const top = b.waste?.[b.waste.length - 1] || '';
  const strict = (vw.settings.options?.kings || '') === 'strict';
  // It stays until the player's next move (other players' moves redraw
  // the page too), and never shows again in this browser.
  const here = `${b.hole}:${b.moves}`;
  if (live && strict && top[0] === 'K' && !(b.playable || []).length && !state.tipShown) {
    state.tipShown = true;
    state.tipFor = here;
    store.setFlag('golf.tip.king', true);
    $('#tip').textContent = t('tip.king');
  }
  $('#tip').hidden = !live || state.tipFor !== here;
  $('#undo').hidden = !b.canUndo;
  $('#redeal').hidden = !b.canRedeal;
  const stand = $('#stand');
  stand.hidden = b.done || vw.status !== 'playing';
  stand.classList.toggle('primary', !!b.over);
  stand.classList.toggle('quiet', !b.over);
  stand.textContent = b.over ? t('play.endHole') : t('play.stand');
  $('#hint').hidden = b.done || b.over || vw.status !== 'playing' || vw.settings.seats !== 1;
  if (`${b.hole}:${b.moves}` !== state.hintFor) { $('#hint-text').textContent = ''; delete $('#hint-text').dataset.move; }
  $('#help-btn').hidden = vw.status !== 'playing';
  $('#help').textContent = keyHelp(vw);
  if (vw.status !== 'playing') $('#help').hidden = true;
}

// The hole clock, in the header; practice has none.
function renderClock(vw) {
  const clock = $('#clock');
  const b = vw.board;
  if (vw.clock && vw.status === 'playing' && !(b && b.done)) {
    const deadline = new Date(vw.clock.deadline).getTime();
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock.textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
      clock.setAttribute('aria-label', t('play.clock') + ' ' + clock.textContent);
      clock.classList.toggle('low', left <= 10);
      if (left === 10) { const live = $('#live'); live.setAttribute('aria-live', 'assertive'); say(t('play.clock') + ' ' + clock.textContent); setTimeout(() => live.setAttribute('aria-live', 'polite'), 1500); }
    };
    clock.hidden = false;
    clock.classList.remove('calm');
    tick();
    state.clockTimer = setInterval(tick, 1000);
  } else if (vw.settings.seats === 1 && vw.status === 'playing') {
    clock.hidden = false;
    clock.textContent = t('play.practiceNoClock');
    clock.removeAttribute('aria-label');
    clock.classList.remove('low');
    clock.classList.add('calm');
  } else clock.hidden = true;
}

// renderRace is the rail beside the board: every player in standings
// order with strokes, to par, thru and whether they are still playing the
// hole; an opponent's board in miniature when the state.view carries it.
function renderRace(vw) {
  const rail = $('.rail');
  const st = vw.standings;
  const show = vw.status !== 'waiting' && st && (state.you >= 0 || !vw.boards?.length) && vw.settings.seats > 1;
  $('#race').hidden = !show;
  $('#rail-title').hidden = !show;
  $('#reactions').hidden = state.you < 0 || vw.settings.seats === 1 || vw.status === 'waiting';
  rail.classList.toggle('solo', vw.settings.seats === 1);
  $('#play').classList.toggle('solo', vw.settings.seats === 1);
  if (!show) { $('#race').replaceChildren(); return; }
  // In match play the rail's title is the match: "Ana 2 UP thru 7".
  $('#rail-title').textContent = st.match ? matchText(st) : t('play.race');
  const prog = new Map((vw.progress || []).map((p) => [p.seat, p]));
  const minis = new Map((vw.boards || []).filter((b) => b.seat !== state.you).map((b) => [b.seat, b]));
  const foundation = foundationGame(vw.settings);
  const keep = new Map($$('#race .bubble').map((b) => [b.closest('li').dataset.seat, b]));
  const you = state.you;
  $('#race').replaceChildren(...st.rows.map((r) => {
    const p = prog.get(r.seat) || {};
    const seat = vw.seats[r.seat] || {};
    // How far a seat has got is on its board (the progress rows do not
    // repeat it): the player's own, or the other seats' settled boards.
    const counts = (r.seat === you ? vw.board : minis.get(r.seat)) || {};
    const doing = vw.status === 'finished' ? t('race.finished') : p.done ? t(p.end === 'cleared' ? 'race.holedOut' : 'race.holeDone', { score: num(p.score ?? 0) }) : t('race.playing', { n: num(counts.cardsLeft ?? 0) });
    const mini = minis.get(r.seat);
    const li = h('li', { class: 'racer' + (r.seat === you ? ' me' : '') + (p.done ? ' done' : ''), 'data-seat': r.seat, 'data-testid': 'race-' + r.seat },
      h('div', { class: 'racer-head' },
        h('span', { class: 'place' }, r.placeText),
        h('strong', { class: 'name' }, r.name, r.seat === you ? h('span', { class: 'sr-only' }, ' (' + t('room.you') + ')') : null),
        h('span', { class: 'topar ' + parClass(r.toPar), 'data-testid': 'race-topar-' + r.seat }, r.toParText)),
      h('div', { class: 'racer-facts' },
        h('span', {}, t('race.strokes', { n: num(r.total) })), ' · ',
        h('span', {}, t('race.thru', { n: num(r.thru) })), ' · ',
        h('span', { class: 'state', 'data-testid': 'race-state-' + r.seat }, doing),
        seat.away ? h('span', { class: 'tag' }, t('room.away')) : null, heldTag(r, 'race-held-' + r.seat)),
      mini ? h('div', { class: 'mini', 'data-testid': 'mini-' + r.seat },
        mini.wait ? h('p', { class: 'wait', 'data-testid': 'wait-' + r.seat }, waitText(mini.wait, vw)) : null,
        renderBoard(mini, { label: t('race.board', { who: r.name }), foundation, outcome: false })) : null);
    const b = keep.get(String(r.seat));
    if (b) li.append(b);
    return li;
  }));
}

// stale reports whether el must be drawn again from these inputs: they
// changed since it was last drawn, or it is empty. Each part of the page
// is drawn again only when what it shows changed: a redraw costs the page
// a layout, at every move of every player.
//
// With the switch golf.checkRedraw on in storage (the browser tests turn
// it on), a part whose inputs did not change is drawn again all the same,
// and if that changes what covers (the elements the draw writes) hold,
// the inputs missed something the part shows: checkRedraws, at the end of
// render, records it in window.__redrawErrors.
function stale(el, inputs, covers = [el]) {
  const key = JSON.stringify(inputs);
  if (el.firstChild && state.drawn.get(el) === key) {
    if (!state.checking) return false;
    state.checks.push({ el, covers, before: covers.map((c) => c.outerHTML) });
  }
  state.drawn.set(el, key);
  return true;
}

// checkRedraws compares the parts drawn again from unchanged inputs
// (stale) with what they held before.
function checkRedraws() {
  if (!state.checking) return;
  window.__redrawChecks = (window.__redrawChecks || 0) + state.checks.length;
  for (const { el, covers, before } of state.checks) {
    covers.forEach((c, i) => {
      if (c.outerHTML === before[i]) return;
      const a = before[i], b = c.outerHTML;
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      (window.__redrawErrors ||= []).push(`#${el.id} at v${state.lastV}: drawn again from the same inputs, #${c.id} changed at ${at}: ` +
        `${JSON.stringify(a.slice(Math.max(0, at - 60), at + 60))} -> ${JSON.stringify(b.slice(Math.max(0, at - 60), at + 60))}`);
    });
  }
  state.checks = [];
}

// renderBoards draws every seat's settled board full size for a
// spectator. A player sees the others' boards once, in miniature in the
// rail (renderRace), never again below.
function renderBoards(vw) {
  const sec = $('#boards');
  const boards = vw.boards || []; // settled boards: every seat's (watching) or the others' (playing)
  sec.hidden = !boards.length || vw.status === 'waiting' || state.you >= 0;
  if (sec.hidden) return;
  const foundation = foundationGame(vw.settings);
  if (!stale(sec, [boards, vw.standings?.rows, vw.seats, vw.tournament, state.you, foundation])) return;
  const rows = new Map((vw.standings?.rows || []).map((r) => [r.seat, r]));
  sec.replaceChildren(...boards.map((b) => h('div', {}, h('h3', {}, vw.seats[b.seat]?.name || '?', rows.get(b.seat) ? h('span', { class: 'topar ' + parClass(rows.get(b.seat).toPar) }, ' ' + rows.get(b.seat).toParText) : null),
    b.wait ? h('p', { class: 'wait', 'data-testid': 'wait-' + b.seat }, waitText(b.wait, vw)) : null,
    renderBoard(b, { label: vw.seats[b.seat]?.name, foundation }))));
}

// waitText says, in the page's language, why a settled board waits: whose
// stock turn holds it back (match.Wait), or that it shows once the hole is
// over (seat -1: a game without a stock, or a tournament hole).
function waitText(w, vw) {
  if (w.seat < 0) return t(vw.tournament ? 'wait.tournament' : 'wait.noStock');
  if (w.seat === state.you) return t('wait.you', { n: num(w.card) });
  return t('wait.turn', { who: vw.seats[w.seat]?.name || '?', n: num(w.card) });
}

function renderScores(vw) {
  const sec = $('#scores');
  sec.hidden = vw.status === 'waiting';
  if (sec.hidden) return;
  const st = vw.standings;
  // (A focused replay button in the scorecard keeps its focus meanwhile.)
  if (!stale($('#scorecard'), [st, vw.best, vw.revealed, vw.commitment], [$('#match-status'), $('#standings'), $('#scorecard'), $('#commitment-box')])) return;
  $('#match-status').textContent = st.match ? matchText(st) : '';
  // Standings: place (with ties), player, to par, total, thru.
  const rows = st.rows.map((r) => h('tr', { 'data-testid': 'standing-' + r.seat },
    h('td', { 'data-testid': 'place-' + r.seat }, r.placeText), h('th', { scope: 'row' }, r.name, r.held ? [' ', heldTag(r, 'held-' + r.seat)] : null),
    h('td', { class: parClass(r.toPar) }, r.toParText), h('td', {}, num(r.total)), h('td', {}, num(r.thru))));
  $('#standings').replaceChildren(h('div', { class: 'scroll-x' }, h('table', {}, h('caption', {}, t('score.standings')),
    h('thead', {}, h('tr', {}, ['score.place', 'score.player', 'score.toPar', 'score.total', 'score.thru'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, rows))));
  $('#scorecard').replaceChildren(scorecard(vw));
  $('#commitment-box').hidden = !vw.commitment;
  $('#commitment').textContent = vw.commitment || '';
}


function renderEnd(vw) {
  const sec = $('#end');
  const finished = vw.status === 'finished';
  sec.hidden = !finished || state.endDismissed === vw.round;
  root.dataset.end = finished ? 'shown' : '';
  if (!finished) { $('#rematch').disabled = false; return; }
  $('#result').textContent = resultText(vw);
  const me = state.you >= 0 ? vw.standings.rows.find((r) => r.seat === state.you) : null;
  // "You placed 2 of 3", or "You tied for 1st of 2" when others share it.
  const tied = me && vw.standings.rows.filter((r) => r.place === me.place).length > 1;
  $('#my-place').textContent = me && vw.settings.seats > 1 && !vw.standings.match
    ? t(tied ? 'end.yourPlaceTied' : 'end.yourPlace', { place: num(me.place), n: num(vw.standings.rows.length), toPar: me.toParText }) : '';
  // The player's own score for the last hole they played: the result
  // covers the line under the board that said it.
  const lastHole = me ? me.scores.findLastIndex((x) => x !== null && x !== undefined) + 1 : 0;
  $('#end-hole').textContent = lastHole ? t('end.lastHole', { h: num(lastHole), score: num(me.scores[lastHole - 1]), toPar: signed(me.scores[lastHole - 1] - 5) }) : '';
  if (!sec.hidden) { clearTimeout(state.toastTimer); $('#toast').hidden = true; }
  // Best possible over the round, and the player's strokes against it
  // (spectators get the best alone).
  const bestTotal = (vw.best || []).reduce((a, b) => a + b.best, 0);
  const mine = me ? (vw.best || []).reduce((a, b) => a + (me.scores?.[b.hole - 1] ?? 0), 0) : 0;
  $('#best-summary').textContent = !vw.best?.length ? ''
    : me ? t('end.best', { best: num(bestTotal), score: num(mine), diff: signed(mine - bestTotal) }) : t('end.bestOnly', { best: num(bestTotal) });
  $('#chart').replaceChildren(...chart(vw.standings));
  $('#seed').textContent = vw.seed || '';
  // Tournament rooms have no rematch: the tournament says what is next.
  $('#rematch').hidden = state.you < 0 || !!vw.tournament;
  $('#to-replays').hidden = !(vw.revealed || []).length;
  const dl = $('#download');
  dl.href = '/api/rooms/' + encodeURIComponent(code) + '/records';
  dl.download = `golf-${code}-round-${vw.round}.json`;
}

// chart draws each player's running score against par, hole by hole.
function chart(st) {
  const n = Math.max(1, st.holes);
  const series = [...st.rows].sort((a, b) => a.seat - b.seat).map((r) => {
    let acc = 0;
    const pts = [[0, 0]];
    r.scores.forEach((s, i) => { if (s !== null && s !== undefined) { acc += s - 5; pts.push([i + 1, acc]); } });
    return { name: r.name, pts };
  });
  const ys = series.flatMap((s) => s.pts.map((p) => p[1]));
  const lo = Math.min(0, ...ys) - 1;
  const hi = Math.max(0, ...ys) + 1;
  const W = 360, H = 200, L = 34, B = 22, T = 8, R = 14;
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  const colours = ['#0b5fa5', '#c0182b', '#137a3a', '#6a2c91', '#a45c00', '#333', '#008b8b', '#b8860b'];
  const dashes = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '3 1'];
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('end.chart'), class: 'chart', 'data-testid': 'chart-svg' });
  g.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: '#888', 'stroke-dasharray': '3 3' }),
    svg('text', { x: 2, y: y(0) + 4, 'font-size': 11 }, t('score.par')));
  for (let i = 1; i <= n; i++) g.append(svg('text', { x: x(i) - 3, y: H - 6, 'font-size': 10 }, num(i)));
  // Names go in a legend below (labels at the lines' ends collide when
  // scores are close, and long names run out of the picture).
  const legend = h('ul', { class: 'chart-legend', 'data-testid': 'chart-legend' });
  series.forEach((s, k) => {
    const c = colours[k % colours.length];
    const dash = dashes[k % dashes.length];
    g.append(svg('polyline', { points: s.pts.map(([i, v]) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: c, 'stroke-width': 2.5, 'stroke-dasharray': dash }));
    for (const [i, v] of s.pts.slice(1)) g.append(svg('circle', { cx: x(i), cy: y(v), r: 3, fill: c }));
    const last = s.pts[s.pts.length - 1];
    legend.append(h('li', {},
      svg('svg', { class: 'swatch', viewBox: '0 0 28 10', 'aria-hidden': 'true' }, svg('line', { x1: 0, x2: 28, y1: 5, y2: 5, stroke: c, 'stroke-width': 3, 'stroke-dasharray': dash })),
      ` ${s.name} ${signed(last[1])}`));
  });
  return [g, legend];
}

// Verify: SHA-256 of the seed's bytes, computed here, against the commitment.
$('#verify').addEventListener('click', async () => {
  const seed = state.view?.seed || '';
  const out = $('#verify-result');
  try {
    const bytes = new Uint8Array(seed.match(/../g).map((x) => parseInt(x, 16)));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    const ok = hex === (state.view.commitment || '').toLowerCase();
    out.textContent = ok ? '✓ ' + t('end.verifyOk') : '✗ ' + t('end.verifyBad');
    out.dataset.ok = String(ok);
  } catch (e) { out.textContent = t('err.generic', { msg: e.message }); }
});

// ---- replay -------------------------------------------------------------
//
// Any player's game of a hole that everyone has finished, or the solver's
// best line of it, in the one replay player (replay.js); the pickers choose
// the player and the hole.

const player = replayPlayer('replay');

function renderReplay(vw) {
  const sec = $('#replay');
  if (vw.round !== state.replayRound) {
    state.replayRound = vw.round;
    state.replayOpen = false;
    state.replayTried = false;
    state.holePicked = false;
    player.close();
  }
  const revealed = vw.revealed || [];
  sec.hidden = !revealed.length || vw.status === 'waiting' || !(vw.status === 'finished' || state.replayOpen);
  $('#replay-close').hidden = vw.status === 'finished';
  // Keep the pickers in step with the seats and the holes everyone has
  // finished, keeping the choice.
  const seatSel = $('#replay-seat');
  const holeSel = $('#replay-hole');
  const seatWas = seatSel.value || String(Math.max(0, state.you));
  const holeWas = holeSel.value;
  const key = JSON.stringify([vw.seats.map((x) => x.name), revealed]);
  if (seatSel.dataset.key !== key) { // rebuilt only when they change, so an open picker stays open
    seatSel.dataset.key = key;
    seatSel.replaceChildren(...vw.seats.map((x, i) => h('option', { value: i }, x.name)));
    seatSel.value = seatWas;
    holeSel.replaceChildren(...revealed.map((n) => h('option', { value: n }, num(n))));
    // The last hole played, unless the player picked one.
    holeSel.value = state.holePicked && revealed.includes(Number(holeWas)) ? holeWas : String(revealed[revealed.length - 1] ?? '');
  }
  // At the end of the round, show the player's own last hole at once.
  if (!sec.hidden && !player.open && !state.replayTried && vw.status === 'finished' && revealed.length) {
    state.replayTried = true;
    loadReplay(Number(seatSel.value), Number(holeSel.value), false);
  }
}

// loadReplay shows a player's game of a hole (GET .../holes/{h}/replay);
// with best, the solver's best line of it (GET .../holes/{h}/best).
async function loadReplay(seat, hole, focus = true, best = false) {
  $('#replay-seat').value = String(seat);
  $('#replay-hole').value = String(hole);
  const path = `/api/rooms/${encodeURIComponent(code)}/holes/${hole}/` + (best ? 'best' : `replay?seat=${seat}`);
  try {
    const data = await api(path);
    const title = best ? t('replay.bestWho', { h: num(hole), score: num(data.score ?? 0) })
      : t('replay.who', { who: data.name || who(seat), h: num(hole), score: num(data.score ?? 0) });
    player.show(data, { who: title, foundation: foundationGame(state.view?.settings || {}), best, focus });
    $('#replay-error').textContent = '';
    // A player's game: its analysis beside it; the best line needs none.
    if (best) $('#replay-analysis').hidden = true;
    else showReview($('#replay-analysis'), code, hole, seat, (i) => player.seek(i));
  } catch (err) {
    if (!best) player.close();
    $('#replay-error').textContent = errorText(err);
    say(errorText(err));
  }
}

// openReplay shows a hole's replay from the scorecard.
function openReplay(seat, hole) {
  state.replayOpen = true;
  if (state.view) renderReplay(state.view);
  $('#replay').hidden = false;
  $('#replay').scrollIntoView({ block: 'start', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  loadReplay(seat, hole);
}

$('#replay-hole').addEventListener('change', () => { state.holePicked = true; });
$('#replay-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if ($('#replay-hole').value === '') return;
  loadReplay(Number($('#replay-seat').value), Number($('#replay-hole').value));
});
$('#replay-best').addEventListener('click', () => loadReplay(Number($('#replay-seat').value), Number($('#replay-hole').value), true, true));
$('#replay-close').addEventListener('click', () => { state.replayOpen = false; $('#replay').hidden = true; $('#scorecard')?.focus(); });
$('#scorecard').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-replay-hole]');
  if (btn) openReplay(Number(btn.dataset.replaySeat), Number(btn.dataset.replayHole));
});

// The page's one socket (socket.js), opened last, once everything it
// calls is defined.
banner(t('conn.connecting'), true);
const socket = openSocket({
  path: () => '/ws',
  hello: () => {
    const hello = { type: 'hello', protocol: 2, room: code, since: state.lastV };
    if (state.token) hello.token = state.token;
    return hello;
  },
  onMessage: handle,
  onDown: () => banner(t('conn.reconnecting')),
});
