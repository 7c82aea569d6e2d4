// The room page's waiting room: the room in words, the seats, ready and
// start, bots, the invitation and taking a seat.
import { $, h, say } from './dom.js';
import { t, num } from './i18n.js';
import { api, errorText, saveSeat, loadName, saveName } from './api.js';
import { listText } from './words.js';
import { code, watching, state, send } from './room-state.js';

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
    state.socket.reconnect();
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

// Numbered and daily practice deals: the deal of the hole in play (hole h
// is deal N+h-1) and a link that starts the same deal.
export function renderDeal(vw) {
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

export function renderWaiting(vw) {
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
