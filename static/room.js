// The room page: one WebSocket, the latest server view rendered by
// version. Moves are sent with a sequence number and resent after a
// reconnect until acknowledged; the page never changes the board itself,
// it only draws the server's view (so no move is ever applied twice).
import './prefs.js';
import { $, $$, h, svg, say } from './dom.js';
import { t, num, signed, cardName } from './i18n.js';
import { api, errorText, normalizeCode, saveSeat, loadSeat, dropSeat, loadName, saveName } from './api.js';
import { renderBoard } from './board.js';

const root = $('#room');
const code = normalizeCode(root.dataset.code);
const watching = root.dataset.watch === 'true';
const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

let token = watching ? null : loadSeat(code)?.token || null;
let ws = null;
let lastV = 0;
let view = null;
let you = -1;
let backoff = 400;
let seq = Date.now();
const pending = new Map(); // seq -> command, resent after reconnect until acked
let pendingMove = 0; // seq of the move waiting for its ack
let lastMessage = Date.now();
let gone = false;
let autoStarted = 0; // the round solo practice was started for
let fly = null;

// ---- connection -------------------------------------------------------

function banner(text, ok = false) {
  const b = $('#banner');
  b.hidden = !text;
  b.textContent = text || '';
  b.classList.toggle('ok', ok);
  root.dataset.conn = text ? 'down' : 'up';
}

function connect() {
  if (gone) return;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const sock = new WebSocket(proto + '//' + location.host + '/ws');
  ws = sock;
  // For the end-to-end tests: closing it simulates a dropped connection.
  window.__golfSocket = sock;
  sock.onopen = () => {
    const hello = { type: 'hello', protocol: 1, room: code, since: lastV };
    if (token) hello.token = token;
    sock.send(JSON.stringify(hello));
  };
  sock.onmessage = (e) => {
    lastMessage = Date.now();
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    handle(m);
  };
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    if (gone) return;
    banner(t('conn.reconnecting'));
    const wait = backoff + Math.random() * backoff * 0.3;
    backoff = Math.min(backoff * 2, 8000);
    setTimeout(connect, wait);
  };
}

function reconnect() {
  const old = ws;
  ws = null;
  old?.close();
  connect();
}

function send(cmd) {
  const m = { ...cmd, seq: ++seq };
  pending.set(m.seq, m);
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
  return m.seq;
}

// Keep the socket alive; a silent one is replaced.
setInterval(() => {
  if (ws?.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: 'ping' }));
    if (Date.now() - lastMessage > 45000) ws.close();
  }
}, 15000);
window.addEventListener('online', () => { if (!ws) { backoff = 400; connect(); } });

function handle(m) {
  switch (m.type) {
    case 'welcome':
      you = typeof m.seat === 'number' ? m.seat : -1;
      backoff = 400;
      banner('');
      for (const c of pending.values()) ws.send(JSON.stringify(c));
      break;
    case 'snapshot':
      show(m.v, m.view);
      break;
    case 'event':
      if (m.view && m.v > lastV) {
        const from = m.event && m.event.seat === you ? flyFrom(m.event) : null;
        show(m.v, m.view);
        announce(m.event);
        if (from) flyTo(from);
      }
      break;
    case 'ack': {
      const cmd = pending.get(m.seq);
      if (cmd?.type === 'hint') showHint(m.move || '');
      pending.delete(m.seq);
      if (m.seq === pendingMove) pendingMove = 0;
      break;
    }
    case 'error': {
      const cmd = pending.get(m.seq);
      pending.delete(m.seq);
      if (m.seq === pendingMove) pendingMove = 0;
      // Both players pressed rematch: the other's press already opened the
      // new round's waiting room, so this press means "ready".
      if (cmd?.type === 'rematch' && (m.code === 'not_finished' || m.code === 'not_playing')) {
        if (view?.status === 'waiting' && !view.seats?.[you]?.ready) send({ type: 'ready', ready: true });
        return;
      }
      if (cmd?.type === 'ready' && m.code === 'no_change') return;
      if (m.code === 'bad_token') { dropSeat(code); token = null; reconnect(); return; }
      if (m.code === 'room_not_found') { gone = true; banner(t('conn.gone')); root.dataset.status = 'gone'; ws?.close(); return; }
      if (m.code === 'no_spectators') { gone = true; banner(errorText(m)); ws?.close(); return; }
      say(t('play.rejected', { msg: m.message || m.code }));
      $('#outcome').textContent = t('play.rejected', { msg: m.message || m.code });
      render();
      break;
    }
  }
}

// ---- announcements ----------------------------------------------------

const who = (s) => (view?.seats?.[s]?.name ?? '?');

function announce(ev) {
  if (!ev) return;
  const parts = [];
  if (ev.kind === 'move' && ev.move) {
    const mine = ev.seat === you;
    if (ev.move === 'r') parts.push(t('play.redealt'));
    else if (ev.move === 'u') parts.push(t('play.undone'));
    else if (ev.card && (mine || you < 0)) {
      const card = cardName(ev.card);
      const turn = ev.move === 's';
      parts.push(mine ? t(turn ? 'play.youTurned' : 'play.youPlayed', { card }) : t(turn ? 'play.turned' : 'play.played', { who: who(ev.seat), card }));
    }
  } else if (ev.kind === 'join' && ev.name) parts.push(t('play.joined', { who: ev.name }));
  else if (ev.kind === 'ready' && ev.ready) parts.push(t('play.isReady', { who: who(ev.seat) }));
  for (const n of ev.notices || []) {
    if (n.kind === 'seatDone') parts.push(t((n.seat || 0) === you ? 'play.youDone' : 'play.seatDone', { who: who(n.seat || 0), h: num(n.hole), score: num(n.score || 0) }));
    else if (n.kind === 'holeStarted') parts.push(t('play.holeStarted', { h: num(n.hole) }));
    else if (n.kind === 'roundEnded') parts.push(t('play.roundEnded') + ': ' + resultText(view));
    else if (n.kind === 'started') parts.push(t('play.started'));
  }
  if (parts.length) say(parts.join('. '));
}

// ---- the card flying to the waste (quick, interruptible) --------------

function flyFrom(ev) {
  if (reduceMotion.matches || !ev.move || !/^\d+$/.test(ev.move)) return null;
  const el = $(`#my-board [data-move="${ev.move}"] .card`);
  return el ? el.getBoundingClientRect() : null;
}

function flyTo(from) {
  const target = $('#my-board .waste .card');
  if (!target) return;
  fly?.cancel();
  const to = target.getBoundingClientRect();
  const clone = target.cloneNode(true);
  clone.classList.add('fly');
  clone.removeAttribute('aria-label');
  clone.setAttribute('aria-hidden', 'true');
  Object.assign(clone.style, { left: to.left + 'px', top: to.top + 'px', width: to.width + 'px' });
  document.body.append(clone);
  target.style.visibility = 'hidden';
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  fly = clone.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: 160, easing: 'ease-out' });
  const done = () => { clone.remove(); target.style.visibility = ''; fly = null; };
  fly.onfinish = done;
  fly.oncancel = done;
}

// ---- commands ---------------------------------------------------------

function board() { return view?.board || null; }

function move(mv) {
  const b = board();
  if (!b || b.done || pendingMove) return;
  if (/^\d+$/.test(mv) && !(b.playable || []).includes(Number(mv))) return;
  if (mv === 's' && !b.canTurn) return;
  if (mv === 'r' && !b.canRedeal) return;
  if (mv === 'u' && !b.canUndo) return;
  fly?.finish();
  pendingMove = send({ type: 'move', hole: b.hole, move: mv });
  const el = $(`#my-board [data-move="${mv}"]`);
  el?.classList.add('pending');
}

// A tap anywhere on a column's visible strip of cards plays its free card.
$('#my-board').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-move]') || e.target.closest('.pile')?.querySelector('[data-move]');
  if (btn) move(btn.dataset.move);
});
$('#undo').addEventListener('click', () => move('u'));
$('#hint').addEventListener('click', askHint);
$('#redeal').addEventListener('click', () => move('r'));
$('#stand').addEventListener('click', () => {
  const b = board();
  if (b && !b.done && (b.over || confirm(t('play.standConfirm')))) send({ type: 'stand', hole: b.hole });
});
$('#help-btn').addEventListener('click', toggleHelp);
// Hints, in solo practice only: the server suggests a move from what the
// player sees (never the stock's order).
let hintFor = '';
function askHint() {
  const b = board();
  if (!b || b.done || view?.settings?.seats !== 1) return;
  hintFor = `${b.hole}:${b.moves}`;
  send({ type: 'hint', hole: b.hole });
}
function showHint(mv) {
  const b = board();
  if (!b || `${b.hole}:${b.moves}` !== hintFor) return; // the board moved on
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
$('#ready').addEventListener('click', () => {
  const mine = view?.seats?.[you];
  send({ type: 'ready', ready: !(mine && mine.ready) });
});
$('#start').addEventListener('click', () => send({ type: 'start' }));
$('#bot-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('#bot-error').textContent = '';
  try {
    await api(`/api/rooms/${encodeURIComponent(code)}/bots`, { method: 'POST', body: { token, level: $('#bot-level').value } });
  } catch (err) { $('#bot-error').textContent = errorText(err); say(errorText(err)); }
});
$('#rematch').addEventListener('click', () => {
  if (view?.status === 'waiting') { if (!view.seats?.[you]?.ready) send({ type: 'ready', ready: true }); return; }
  $('#rematch').disabled = true;
  send({ type: 'rematch' });
});
$('#copy-link').addEventListener('click', async () => {
  const link = $('#invite-link');
  try { await navigator.clipboard.writeText(link.value); } catch { link.select(); document.execCommand?.('copy'); }
  say(t('room.copied'));
  $('#copy-link').textContent = t('room.copied');
  setTimeout(() => { $('#copy-link').textContent = t('room.copy'); }, 2000);
});
$('#seat-name').value = loadName();
$('#seat-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = $('#seat-name').value.trim();
  if (!name) { $('#seat-name').focus(); return; }
  saveName(name);
  try {
    const grant = await api('/api/rooms/' + encodeURIComponent(code) + '/join', { method: 'POST', body: { name } });
    saveSeat(grant);
    token = grant.token;
    if (watching) { location.assign('/r/' + encodeURIComponent(grant.code)); return; }
    lastV = 0;
    reconnect();
  } catch (err) { say(errorText(err)); $('#settings-summary').textContent = errorText(err); }
});

// Keyboard: 1-9 and 0 play a pile, Space turns, R redeals, U undoes, ?
// shows help, arrows move focus between the cards.
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  if (e.key === '?') { toggleHelp(); e.preventDefault(); return; }
  if (e.target.closest?.('#replay')) return;
  const b = board();
  if (!b || $('#play').hidden) return;
  const onCard = e.target.closest && e.target.closest('#my-board [data-move]');
  if (/^[0-9]$/.test(e.key)) { move(String(e.key === '0' ? 10 : Number(e.key))); e.preventDefault(); return; }
  if (e.key === ' ' && !onCard) { move('s'); e.preventDefault(); return; }
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

let focusedMove = null;
function focusCard(el) {
  for (const c of $$('#my-board [data-move]')) c.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
  focusedMove = el.dataset.move;
}

// ---- rendering ----------------------------------------------------------

function show(v, vw) {
  if (!vw || v < lastV) return;
  lastV = v;
  view = vw;
  if (typeof vw.you === 'number') you = vw.you;
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

function render() {
  const vw = view;
  if (!vw) return;
  const s = vw.settings;
  root.dataset.status = vw.status;
  root.dataset.v = String(lastV);
  root.dataset.you = String(you);
  $('#room-status').textContent = t('status.' + vw.status);
  $('#room-hole').textContent = vw.hole ? '· ' + t('room.hole', { h: num(vw.hole), n: num(s.holes) }) : '';
  renderDeal(vw);
  // A tournament room links back to its tournament.
  $('#back-tournament-line').hidden = !vw.tournament;
  if (vw.tournament) $('#back-tournament').href = '/t/' + encodeURIComponent(vw.tournament);
  renderWaiting(vw);
  renderPlay(vw);
  renderBoards(vw);
  renderScores(vw);
  renderEnd(vw);
  renderReplay(vw);
}

// Numbered and daily practice deals: the deal of the hole in play (hole h
// is deal N+h-1) and a link that starts the same deal.
function renderDeal(vw) {
  const s = vw.settings;
  const diff = $('#room-difficulty');
  diff.hidden = !vw.difficulty || vw.status !== 'playing';
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
  sec.hidden = vw.status !== 'waiting';
  if (sec.hidden) return;
  $('#invite-link').value = location.origin + '/r/' + code;
  $('#settings-summary').textContent = settingsText(s);
  const list = $('#seats');
  list.replaceChildren();
  for (let i = 0; i < s.seats; i++) {
    const seat = vw.seats[i];
    if (!seat) { list.append(h('li', { class: 'note', 'data-testid': 'seat-' + i }, t('room.emptySeat'))); continue; }
    list.append(h('li', { 'data-testid': 'seat-' + i, 'data-ready': String(seat.ready) },
      h('strong', {}, seat.name),
      i === 0 ? h('span', { class: 'tag' }, t('room.host')) : null,
      i === you ? h('span', { class: 'tag' }, t('room.you')) : null,
      seat.bot ? h('span', { class: 'tag' }, t('room.bot')) : null,
      seat.away ? h('span', { class: 'tag' }, t('room.away')) : null,
      h('span', { class: 'tag' + (seat.ready ? ' ready' : '') }, seat.ready ? '✓ ' + t('room.ready') : '… ' + t('room.notReady'))));
  }
  const ready = $('#ready');
  ready.hidden = you < 0;
  ready.textContent = vw.seats[you]?.ready ? t('room.unreadyBtn') : t('room.readyBtn');
  const need = s.format === 'match' ? 2 : 1;
  const start = $('#start');
  start.hidden = you !== 0;
  start.disabled = vw.seats.length < need || vw.seats.some((x, i) => i > 0 && !x.ready);
  $('#seat-form').hidden = you >= 0 || vw.seats.length >= s.seats;
  // The host may add bots to free seats (practice against the computer).
  $('#bot-form').hidden = you !== 0 || vw.seats.length >= s.seats;
  // Solo practice starts at once.
  if (you === 0 && s.seats === 1 && autoStarted !== vw.round) { autoStarted = vw.round; send({ type: 'start' }); }
}

let clockTimer = null;
function renderPlay(vw) {
  const b = vw.board;
  const sec = $('#play');
  sec.hidden = !(b && you >= 0 && vw.status !== 'waiting');
  clearInterval(clockTimer);
  if (sec.hidden) return;
  const foundation = vw.settings.game === 'black-hole' || vw.settings.game === 'all-in-a-row';
  const hadFocus = sec.contains(document.activeElement) ? (document.activeElement.dataset.move || focusedMove) : null;
  // The outcome is said once, below the board (#outcome), not in it too.
  const el = renderBoard(b, { label: t('play.board'), interactive: vw.status === 'playing', foundation, outcome: false });
  $('#my-board').replaceChildren(el);
  const cards = $$('#my-board [data-move]');
  if (cards.length) {
    const keep = hadFocus && cards.find((c) => c.dataset.move === hadFocus);
    const first = keep || cards.find((c) => c.getAttribute('aria-disabled') === 'false') || cards[0];
    first.tabIndex = 0;
    if (keep) keep.focus({ preventScroll: true });
  }
  let msg = '';
  if (b.done || b.over) {
    msg = t(b.cleared || b.end === 'cleared' ? 'play.holedOut' : b.end === 'clock' ? 'play.timeUp' : b.end === 'away' ? 'play.awayEnd' : 'play.noMoves');
    if (b.done && vw.status === 'playing' && vw.progress.some((p) => !p.done)) msg += ' ' + t('play.waitOthers');
  }
  $('#outcome').textContent = msg;
  root.dataset.board = b.done ? 'done' : b.over ? 'over' : 'live';
  $('#undo').hidden = !b.canUndo;
  $('#redeal').hidden = !b.canRedeal;
  $('#stand').hidden = b.done || vw.status !== 'playing';
  $('#hint').hidden = b.done || b.over || vw.status !== 'playing' || vw.settings.seats !== 1;
  if (`${b.hole}:${b.moves}` !== hintFor) { $('#hint-text').textContent = ''; delete $('#hint-text').dataset.move; }
  $('#help-btn').hidden = vw.status !== 'playing';
  if (vw.status !== 'playing') $('#help').hidden = true;
  // The hole clock; practice has none.
  const clock = $('#clock');
  if (vw.clock && vw.status === 'playing' && !b.done) {
    const deadline = new Date(vw.clock.deadline).getTime();
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock.textContent = t('play.clock') + ' ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
      clock.classList.toggle('low', left <= 10);
      if (left === 10) { const live = $('#live'); live.setAttribute('aria-live', 'assertive'); say(clock.textContent); setTimeout(() => live.setAttribute('aria-live', 'polite'), 1500); }
    };
    clock.hidden = false;
    clock.classList.remove('calm');
    tick();
    clockTimer = setInterval(tick, 1000);
  } else if (vw.settings.seats === 1 && vw.status === 'playing') {
    clock.hidden = false;
    clock.textContent = t('play.practiceNoClock');
    clock.classList.remove('low');
    clock.classList.add('calm');
  } else clock.hidden = true;
  const opp = $('#opponents');
  opp.replaceChildren();
  for (const p of vw.progress) {
    if (p.seat === you) continue;
    const seat = vw.seats[p.seat] || {};
    opp.append(h('li', { 'data-testid': 'opponent-' + p.seat },
      h('strong', {}, seat.name || '?'), seat.away ? ` (${t('room.away')})` : '', h('br'),
      `${t('play.cardsLeft')}: ${num(p.cardsLeft)} · ${t('play.stockLeft')}: ${num(p.stockLeft)} · ${t('play.moves')}: ${num(p.moves)}`,
      p.done ? h('span', { class: 'tag ready' }, ` ✓ ${t('play.done')}: ${num(p.score ?? 0)}`) : null));
  }
  opp.previousElementSibling.hidden = !opp.children.length;
}

function renderBoards(vw) {
  const sec = $('#boards');
  const boards = you < 0 ? vw.boards || [] : [];
  sec.hidden = !boards.length || vw.status === 'waiting';
  if (sec.hidden) return;
  const foundation = vw.settings.game === 'black-hole' || vw.settings.game === 'all-in-a-row';
  sec.replaceChildren(...boards.map((b) => h('div', {}, h('h3', {}, vw.seats[b.seat]?.name || '?'),
    renderBoard(b, { label: vw.seats[b.seat]?.name, foundation }))));
}

function parClass(n) { return n < 0 ? 'under' : n > 0 ? 'over' : 'even'; }

function renderScores(vw) {
  const sec = $('#scores');
  sec.hidden = vw.status === 'waiting';
  if (sec.hidden) return;
  const st = vw.standings;
  $('#match-status').textContent = st.match ? st.match.text : '';
  // Standings: place (with ties), player, to par, total, thru.
  const rows = st.rows.map((r) => h('tr', { 'data-testid': 'standing-' + r.seat },
    h('td', { 'data-testid': 'place-' + r.seat }, r.placeText), h('th', { scope: 'row' }, r.name),
    h('td', { class: parClass(r.toPar) }, r.toParText), h('td', {}, num(r.total)), h('td', {}, num(r.thru))));
  $('#standings').replaceChildren(h('div', { class: 'scroll-x' }, h('table', {}, h('caption', {}, t('score.standings')),
    h('thead', {}, h('tr', {}, ['score.place', 'score.player', 'score.toPar', 'score.total', 'score.thru'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, rows))));
  // Scorecard: holes across, par, strokes, totals.
  const n = Math.max(st.holes, ...st.rows.map((r) => r.scores.length));
  const holes = [...Array(n).keys()];
  const bySeat = [...st.rows].sort((a, b) => a.seat - b.seat);
  const revealed = vw.revealed || [];
  $('#scorecard').replaceChildren(h('div', { class: 'scroll-x', tabindex: n > 9 ? '0' : null, role: n > 9 ? 'region' : null, 'aria-label': n > 9 ? t('score.card') : null }, h('table', { class: 'scorecard', 'data-testid': 'scorecard' },
    h('caption', {}, t('score.card')),
    h('thead', {},
      h('tr', {}, h('th', { scope: 'col' }, t('score.hole')), holes.map((i) => h('th', { scope: 'col' }, num(i + 1))), h('th', { scope: 'col' }, t('score.total')), h('th', { scope: 'col' }, t('score.toPar'))),
      h('tr', { class: 'par' }, h('th', { scope: 'row' }, t('score.par')), holes.map(() => h('td', {}, num(5))), h('td', {}, num(st.par)), h('td', {})),
      bestRow(vw, holes)),
    h('tbody', {}, bySeat.map((r) => h('tr', { 'data-testid': 'score-row-' + r.seat },
      h('th', { scope: 'row' }, r.name),
      holes.map((i) => {
        const sc = r.scores[i];
        if (sc === null || sc === undefined) return h('td', { class: 'none', 'aria-label': t('score.notPlayed') }, '·');
        const vs = r.vsBest?.[i];
        const cell = [num(sc), h('small', {}, signed(sc - 5)), vs !== null && vs !== undefined ? h('small', { class: 'vs-best', title: t('score.vsBest', { n: signed(vs) }), 'data-testid': `vsbest-${r.seat}-${i + 1}` }, ' ★' + signed(vs)) : null];
        // A hole everyone has finished can be replayed from its score.
        const open = revealed.includes(i + 1)
          ? h('button', { type: 'button', class: 'cell-link', 'data-replay-seat': r.seat, 'data-replay-hole': i + 1, 'data-testid': `replay-${r.seat}-${i + 1}`, 'aria-label': t('replay.open', { who: r.name, h: num(i + 1), score: num(sc) }) }, cell)
          : cell;
        return h('td', { class: parClass(sc - 5), 'data-testid': `score-${r.seat}-${i + 1}` }, open);
      }),
      h('td', { 'data-testid': 'total-' + r.seat }, num(r.total)),
      h('td', { class: parClass(r.toPar), 'data-testid': 'topar-' + r.seat }, r.toParText)))))));
  $('#commitment-box').hidden = !vw.commitment;
  $('#commitment').textContent = vw.commitment || '';
}

// bestRow is the scorecard's "best possible" line: the solver's best score
// of each hole everyone has finished (never of a hole in play).
function bestRow(vw, holes) {
  const best = new Map((vw.best || []).map((b) => [b.hole, b]));
  if (!best.size) return null;
  return h('tr', { class: 'best', 'data-testid': 'best-row' }, h('th', { scope: 'row' }, t('score.best')),
    holes.map((i) => {
      const b = best.get(i + 1);
      return h('td', { 'data-testid': `best-${i + 1}` }, b ? num(b.best) + (b.exact ? '' : '≥') : '·');
    }), h('td', {}, num([...best.values()].reduce((a, b) => a + b.best, 0))), h('td', {}));
}

function resultText(vw) {
  const st = vw?.standings;
  if (!st) return '';
  if (st.match) return st.match.text;
  if (vw.settings.seats === 1 && st.rows[0]) return t('end.solo', { score: num(st.rows[0].total), toPar: st.rows[0].toParText });
  const winners = st.rows.filter((r) => r.place === 1).map((r) => r.name);
  return t('end.winner', { who: winners.join(', ') }) + (st.rows[0] ? ` (${st.rows[0].toParText})` : '');
}

function renderEnd(vw) {
  const sec = $('#end');
  sec.hidden = vw.status !== 'finished';
  if (sec.hidden) { $('#rematch').disabled = false; return; }
  $('#result').textContent = resultText(vw);
  // Best possible over the round, and the player's strokes against it.
  const me = vw.standings.rows.find((r) => r.seat === Math.max(0, you));
  const bestTotal = (vw.best || []).reduce((a, b) => a + b.best, 0);
  const mine = (vw.best || []).reduce((a, b) => a + (me?.scores?.[b.hole - 1] ?? 0), 0);
  $('#best-summary').textContent = vw.best?.length && me
    ? t('end.best', { best: num(bestTotal), score: num(mine), diff: signed(mine - bestTotal) }) : '';
  $('#chart').replaceChildren(chart(vw.standings));
  $('#seed').textContent = vw.seed || '';
  // Tournament rooms have no rematch: the tournament says what is next.
  $('#rematch').hidden = you < 0 || !!vw.tournament;
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
  const W = 360, H = 200, L = 34, B = 22, T = 8, R = 90;
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  const colours = ['#0b5fa5', '#c0182b', '#137a3a', '#6a2c91', '#a45c00', '#333', '#008b8b', '#b8860b'];
  const dashes = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '3 1'];
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('end.chart'), class: 'chart', 'data-testid': 'chart-svg' });
  g.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: '#888', 'stroke-dasharray': '3 3' }),
    svg('text', { x: 2, y: y(0) + 4, 'font-size': 11 }, t('score.par')));
  for (let i = 1; i <= n; i++) g.append(svg('text', { x: x(i) - 3, y: H - 6, 'font-size': 10 }, num(i)));
  series.forEach((s, k) => {
    const c = colours[k % colours.length];
    g.append(svg('polyline', { points: s.pts.map(([i, v]) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: c, 'stroke-width': 2.5, 'stroke-dasharray': dashes[k % dashes.length] }));
    for (const [i, v] of s.pts.slice(1)) g.append(svg('circle', { cx: x(i), cy: y(v), r: 3, fill: c }));
    const last = s.pts[s.pts.length - 1];
    g.append(svg('text', { x: x(last[0]) + 6, y: y(last[1]) + 4 + k * 12, 'font-size': 11, fill: c }, `${s.name} ${signed(last[1])}`));
  });
  return g;
}

// Verify: SHA-256 of the seed's bytes, computed here, against the commitment.
$('#verify').addEventListener('click', async () => {
  const seed = view?.seed || '';
  const out = $('#verify-result');
  try {
    const bytes = new Uint8Array(seed.match(/../g).map((x) => parseInt(x, 16)));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    const ok = hex === (view.commitment || '').toLowerCase();
    out.textContent = ok ? '✓ ' + t('end.verifyOk') : '✗ ' + t('end.verifyBad');
    out.dataset.ok = String(ok);
  } catch (e) { out.textContent = t('err.generic', { msg: e.message }); }
});

// ---- replay -------------------------------------------------------------
//
// Any player's game of a hole that everyone has finished, board by board
// from the server: first / previous / next / last (buttons, or the arrow
// keys, Home and End while the replay has focus), the move counter and what
// each move did.

let replay = null; // {seat, hole, name, moves, boards, score, end, i}
let replayOpen = false; // opened from the scorecard during play
let replayRound = 0;
let replayTried = false;

function renderReplay(vw) {
  const sec = $('#replay');
  if (vw.round !== replayRound) { replayRound = vw.round; replay = null; replayOpen = false; replayTried = false; $('#replay-player').hidden = true; }
  const revealed = vw.revealed || [];
  sec.hidden = !revealed.length || vw.status === 'waiting' || !(vw.status === 'finished' || replayOpen);
  $('#replay-close').hidden = vw.status === 'finished';
  // Keep the pickers in step with the seats and the holes everyone has
  // finished, keeping the choice.
  const seatSel = $('#replay-seat');
  const holeSel = $('#replay-hole');
  const seatWas = seatSel.value || String(Math.max(0, you));
  const holeWas = holeSel.value;
  const key = JSON.stringify([vw.seats.map((x) => x.name), revealed]);
  if (seatSel.dataset.key !== key) { // rebuilt only when they change, so an open picker stays open
    seatSel.dataset.key = key;
    seatSel.replaceChildren(...vw.seats.map((x, i) => h('option', { value: i }, x.name)));
    seatSel.value = seatWas;
    holeSel.replaceChildren(...revealed.map((n) => h('option', { value: n }, num(n))));
    holeSel.value = revealed.includes(Number(holeWas)) ? holeWas : String(revealed[revealed.length - 1] ?? '');
  }
  // At the end of the round, show the player's own last hole at once.
  if (!sec.hidden && !replay && !replayTried && vw.status === 'finished' && revealed.length) {
    replayTried = true;
    loadReplay(Number(seatSel.value), Number(holeSel.value), false);
  }
}

async function loadReplay(seat, hole, focus = true) {
  const box = $('#replay-view');
  $('#replay-seat').value = String(seat);
  $('#replay-hole').value = String(hole);
  try {
    const data = await api(`/api/rooms/${encodeURIComponent(code)}/holes/${hole}/replay?seat=${seat}`);
    replay = { ...data, moves: data.moves || [], boards: data.boards || [], i: 0 };
    $('#replay-player').hidden = false;
    delete $('#replay-player').dataset.best;
    $('#replay-who').textContent = t('replay.who', { who: data.name || who(seat), h: num(hole), score: num(data.score ?? 0) });
    drawReplay(false);
    if (focus) $('#replay-player').focus();
  } catch (err) {
    replay = null;
    $('#replay-player').hidden = true;
    $('#replay-error').textContent = errorText(err);
    say(errorText(err));
    return;
  }
  $('#replay-error').textContent = '';
}

// loadBest steps through the solver's best line of a hole everyone has
// finished (GET .../holes/{h}/best).
async function loadBest(hole) {
  try {
    const data = await api(`/api/rooms/${encodeURIComponent(code)}/holes/${hole}/best`);
    replay = { ...data, moves: data.moves || [], boards: data.boards || [], i: 0, best: true };
    $('#replay-player').hidden = false;
    $('#replay-player').dataset.best = 'true';
    $('#replay-who').textContent = t('replay.bestWho', { h: num(hole), score: num(data.score ?? 0) });
    drawReplay(false);
    $('#replay-player').focus();
    $('#replay-error').textContent = '';
  } catch (err) {
    $('#replay-error').textContent = errorText(err);
    say(errorText(err));
  }
}

// openReplay shows a hole's replay from the scorecard.
function openReplay(seat, hole) {
  replayOpen = true;
  if (view) renderReplay(view);
  $('#replay').hidden = false;
  $('#replay').scrollIntoView({ block: 'start', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  loadReplay(seat, hole);
}

function topOf(b, pile) {
  const p = b?.piles?.[pile - 1] || [];
  return b?.layout === 'columns' ? p[p.length - 1] : p[0];
}

// moveText says what move k (1-based) of the replay did.
function moveText(k) {
  if (!replay) return '';
  if (k === 0) return t('replay.deal', { n: num(replay.boards[0]?.cardsLeft ?? 0) });
  const m = replay.moves[k - 1];
  const before = replay.boards[k - 1];
  const after = replay.boards[k];
  let text;
  if (m === 's') text = t('replay.turned', { card: cardName(after?.waste?.[after.waste.length - 1]) });
  else if (m === 'r') text = t('play.redealt');
  else if (m === 'u') text = t('play.undone');
  else text = t('replay.played', { card: cardName(topOf(before, Number(m))), n: num(Number(m)) });
  if (k === replay.moves.length && (replay.end || after?.over)) text += '. ' + t('replay.over', { score: num(replay.score ?? 0) });
  return text;
}

function replayLast() { return replay ? replay.boards.length - 1 : 0; }

function drawReplay(speak = true) {
  if (!replay) return;
  const i = replay.i;
  const b = replay.boards[i];
  const foundation = view?.settings?.game === 'black-hole' || view?.settings?.game === 'all-in-a-row';
  $('#replay-view').replaceChildren(b ? renderBoard(b, { label: t('end.replay') + ': ' + t('end.step', { i: num(i), n: num(replayLast()) }), foundation }) : '');
  const step = t('end.step', { i: num(i), n: num(replayLast()) });
  $('#replay-step').textContent = step;
  $('#replay-move').textContent = moveText(i);
  $('#replay-player').dataset.step = String(i);
  $('#replay-player').dataset.last = String(replayLast());
  $('#replay-first').disabled = $('#replay-prev').disabled = i <= 0;
  $('#replay-next').disabled = $('#replay-last').disabled = i >= replayLast();
  if (speak) say(step + '. ' + moveText(i));
}

function replayGo(i) {
  if (!replay) return;
  const next = Math.max(0, Math.min(replayLast(), i));
  if (next === replay.i) return;
  replay.i = next;
  drawReplay();
}

$('#replay-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if ($('#replay-hole').value === '') return;
  loadReplay(Number($('#replay-seat').value), Number($('#replay-hole').value));
});
$('#replay-first').addEventListener('click', () => replayGo(0));
$('#replay-prev').addEventListener('click', () => replayGo((replay?.i ?? 0) - 1));
$('#replay-next').addEventListener('click', () => replayGo((replay?.i ?? 0) + 1));
$('#replay-last').addEventListener('click', () => replayGo(replayLast()));
$('#replay-best').addEventListener('click', () => loadBest(Number($('#replay-hole').value)));
$('#replay-close').addEventListener('click', () => { replayOpen = false; $('#replay').hidden = true; $('#scorecard')?.focus(); });
$('#replay-player').addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !replay) return;
  const go = { ArrowLeft: replay.i - 1, ArrowUp: replay.i - 1, ArrowRight: replay.i + 1, ArrowDown: replay.i + 1, Home: 0, End: replayLast() }[e.key];
  if (go === undefined) return;
  replayGo(go);
  e.preventDefault();
  e.stopPropagation();
});
$('#scorecard').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-replay-hole]');
  if (btn) openReplay(Number(btn.dataset.replaySeat), Number(btn.dataset.replayHole));
});

banner(t('conn.connecting'), true);
connect();
