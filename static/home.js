// The lobby and the practice page: create a room, join by code, public
// rooms, quick match and quick practice. All through the JSON API.
import { me } from './prefs.js';
import { $, $$, h } from './dom.js';
import { t, num } from './i18n.js';
import { api, errorText, normalizeCode, saveSeat, loadName, saveName } from './api.js';
import { watchRoom, settledBoards, playersText } from './watch.js';

const nameInput = $('#name');
const errorBox = $('#home-error');
if (nameInput) nameInput.value = loadName();

function showError(msg) { if (errorBox) errorBox.textContent = msg || ''; }

function name() {
  const n = (nameInput?.value || '').trim();
  if (!n) { showError(t('home.errName')); nameInput?.focus(); return null; }
  saveName(n);
  return n;
}

function enter(grant) {
  saveSeat(grant);
  location.assign('/r/' + encodeURIComponent(grant.code));
}

// Settings forms: show only the options that apply to the chosen game.
function wireForm(form) {
  const game = form.elements.game;
  const sync = () => {
    for (const el of $$('.opt', form)) {
      const on = el.dataset.games.split(' ').includes(game.value);
      el.hidden = !on;
      for (const input of $$('input,select', el)) input.disabled = !on;
    }
    const kings = game.selectedOptions[0]?.dataset.kings;
    if (kings && form.elements.kings) form.elements.kings.value = kings;
  };
  game.addEventListener('change', sync);
  sync();
  const holes = form.elements.holes;
  for (const r of form.elements.holesPreset) {
    r.addEventListener('change', () => { if (r.value !== 'custom') holes.value = r.value; });
  }
  // Typing a preset's number picks that preset; any other number, Custom.
  const pick = () => {
    const presets = [...form.elements.holesPreset].map((r) => r.value);
    form.elements.holesPreset.value = presets.includes(String(Number(holes.value))) && holes.value.trim() !== '' ? String(Number(holes.value)) : 'custom';
  };
  holes.addEventListener('input', pick);
  const deal = form.elements.deal;
  if (deal) {
    const dsync = () => { form.elements.dealNumber.disabled = deal.value !== 'numbered'; };
    for (const r of deal) r.addEventListener('change', dsync);
    form.elements.dealNumber.addEventListener('input', () => { deal.value = 'numbered'; dsync(); });
    form.elements.dealNumber.addEventListener('focus', () => { deal.value = 'numbered'; dsync(); });
    dsync();
  }
  form.sync = sync;
  const seats = form.elements.seats;
  if (form.elements.format && seats) {
    const fsync = () => {
      const match = form.elements.format.value === 'match';
      if (match) seats.value = 2;
      seats.disabled = match;
      for (const el of $$('[data-format="match"]', form)) { el.hidden = !match; $$('input', el).forEach((i) => { i.disabled = !match; }); }
    };
    for (const r of form.elements.format) r.addEventListener('change', fsync);
    fsync();
  }
}

// readSettings builds the settings JSON the server expects, with only the
// options that apply to the game.
export function readSettings(form, practice) {
  const f = form.elements;
  const options = {};
  const on = (n) => f[n] && !f[n].disabled;
  if (on('kings')) options.kings = f.kings.value;
  if (on('freeStart')) options.freeStart = f.freeStart.checked;
  if (on('jokers')) options.jokers = Number(f.jokers.value);
  if (on('columns')) options.columns = Number(f.columns.value);
  if (on('redeals')) options.redeals = f.redeals.checked ? 1 : 0;
  if (on('negativeScore')) options.negativeScore = f.negativeScore.checked;
  const holes = Math.min(18, Math.max(1, Number(f.holes.value) || 9));
  if (practice) {
    options.undo = true;
    const set = { game: f.game.value, options, holes, format: 'stroke', seats: 1, public: false, spectators: false, autoStart: true };
    // Numbered deals (hole h is deal N+h-1) and the deal of the day.
    if (f.deal?.value === 'numbered') set.deal = Math.max(1, Math.floor(Number(f.dealNumber.value)) || 1);
    if (f.deal?.value === 'today') set.daily = true;
    // Numbered and daily deals are never replaced.
    if (f.winnableOnly?.checked && !set.deal && !set.daily) set.winnableOnly = true;
    return set;
  }
  const format = f.format.value;
  return {
    game: f.game.value, options, holes, format,
    seats: format === 'match' ? 2 : Math.min(8, Math.max(1, Number(f.seats.value) || 2)),
    holeClock: Number(f.holeClock.value) || 0,
    suddenDeath: format === 'match' && f.suddenDeath.checked,
    skipUnclearable: f.skipUnclearable.checked, winnableOnly: !!f.winnableOnly?.checked, countback: f.countback.checked,
    public: f.public.checked, spectators: f.spectators.checked,
    spectatorDelay: Number(f.spectatorDelay.value) || 0, grace: Number(f.grace.value) || 0,
    autoStart: f.autoStart.checked,
  };
}

async function create(settings, n = name(), fail = showError) {
  if (!n) return;
  fail('');
  try {
    enter(await api('/api/rooms', { method: 'POST', body: { settings, name: n } }));
  } catch (e) { fail(errorText(e)); }
}

for (const id of ['create-form', 'practice-form']) {
  const form = document.getElementById(id);
  if (!form) continue;
  wireForm(form);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (id === 'practice-form') { create(readSettings(form, true)); return; }
    // The create dialog has its own name field and error line.
    const box = $('#create-name');
    const err = (msg) => { $('#create-error').textContent = msg || ''; };
    const n = box.value.trim();
    if (!n) { err(t('home.errName')); box.focus(); return; }
    saveName(n);
    if (nameInput) nameInput.value = n;
    create(readSettings(form, false), n, err);
  });
}

// Create a room: a dialog with the settings, the name carried over from
// the lobby.
const dialog = $('#create-dialog');
$('#open-create')?.addEventListener('click', () => {
  $('#create-name').value = (nameInput?.value || '').trim() || loadName();
  $('#create-error').textContent = '';
  dialog.showModal();
  ($('#create-name').value ? $('[data-testid=create-submit]') : $('#create-name')).focus();
});
$('#create-cancel')?.addEventListener('click', () => dialog.close());

// A shared practice link, /practice?deal=N (and the game and its rules:
// &game=tripeaks&kings=wrap...), or /practice?daily=1, starts that deal.
const practiceForm = document.getElementById('practice-form');
const shared = new URLSearchParams(location.search);
if (practiceForm && (shared.has('deal') || shared.has('daily'))) {
  const f = practiceForm.elements;
  const n = Math.floor(Number(shared.get('deal')));
  if (shared.has('game') && [...f.game.options].some((o) => o.value === shared.get('game'))) {
    f.game.value = shared.get('game');
  }
  practiceForm.sync();
  for (const k of ['kings', 'jokers', 'columns']) if (shared.has(k) && f[k]) f[k].value = shared.get(k);
  for (const k of ['freeStart', 'negativeScore']) if (shared.has(k) && f[k]) f[k].checked = shared.get(k) === 'true';
  if (shared.has('redeals') && f.redeals) f.redeals.checked = Number(shared.get('redeals')) > 0;
  if (shared.has('holes')) { f.holes.value = String(Math.min(18, Math.max(1, Number(shared.get('holes')) || 1))); f.holes.dispatchEvent(new Event('input')); }
  if (shared.get('daily') === '1' || shared.get('daily') === 'true') f.deal.value = 'today';
  else if (n > 0) { f.deal.value = 'numbered'; f.dealNumber.value = String(n); }
  f.dealNumber.disabled = f.deal.value !== 'numbered';
  if (f.deal.value !== 'random') {
    if (nameInput && !nameInput.value.trim()) nameInput.value = t('practice.defaultName');
    create(readSettings(practiceForm, true));
  }
}

$('#quickpractice')?.addEventListener('click', () => create({ game: 'golf', options: { undo: true }, holes: 1, format: 'stroke', seats: 1, public: false, spectators: false, autoStart: true }));

// Rated quick match is offered to accounts; a guest is pointed to the
// login page. An account plays under its own name.
if ($('#rated-box')) {
  me.then((a) => {
    $('#rated-box').hidden = !a?.name;
    $('#rated-login').hidden = !!a?.name;
    if (a?.name && nameInput && !nameInput.value.trim()) nameInput.value = a.name;
  });
}

// Quick match long-polls until paired.
let qm = null;
$('#quickmatch')?.addEventListener('click', async () => {
  const n = name();
  if (!n || qm) return;
  showError('');
  qm = new AbortController();
  $('#qm-status').hidden = false;
  try {
    for (;;) {
      const body = { name: n };
      // Rated quick match (accounts only): the default settings, rated;
      // paired by rating.
      if ($('#qm-rated')?.checked) body.settings = { rated: true };
      const grant = await api('/api/quickmatch', { method: 'POST', body, signal: qm.signal });
      if (grant) { enter(grant); return; }
    }
  } catch (e) {
    if (e.name !== 'AbortError') showError(errorText(e));
  } finally {
    qm = null;
    $('#qm-status').hidden = true;
  }
});
$('#qm-cancel')?.addEventListener('click', () => qm?.abort());

$('#join-form')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const code = normalizeCode($('#join-code').value);
  if (!code) { showError(t('home.errCode')); return; }
  const n = name();
  if (!n) return;
  try {
    enter(await api('/api/rooms/' + encodeURIComponent(code) + '/join', { method: 'POST', body: { name: n } }));
  } catch (err) { showError(errorText(err)); }
});

async function joinRoom(code) {
  const n = name();
  if (!n) return;
  try { enter(await api('/api/rooms/' + encodeURIComponent(code) + '/join', { method: 'POST', body: { name: n } })); } catch (err) { showError(errorText(err)); }
}

// Public rooms, refreshed every few seconds.
const list = $('#public-rooms');
async function refresh() {
  if (!list || document.hidden) return;
  let data;
  try { data = await api('/api/rooms'); } catch { return; }
  const rooms = data?.rooms || [];
  list.replaceChildren();
  if (!rooms.length) { list.append(h('li', { class: 'note' }, t('home.publicEmpty'))); return; }
  for (const r of rooms) {
    const s = r.settings || {};
    const seats = r.seats || [];
    const free = r.status === 'waiting' && seats.length < (s.seats || 0);
    const full = r.status === 'waiting' && !free;
    list.append(h('li', { 'data-testid': 'public-room', 'data-code': r.code, 'data-full': String(full) },
      h('span', {}, h('code', {}, r.code), ' · ', t('game.' + s.game), ' · ', full ? h('span', { class: 'tag full' }, t('home.full')) : t('status.' + r.status),
        r.hole ? ' · ' + t('room.hole', { h: num(r.hole), n: num(s.holes) }) : '',
        ' · ', t('home.seatsOf', { n: num(seats.length), m: num(s.seats || 0) }), seats.length ? ' (' + seats.join(', ') + ')' : ''),
      h('span', { class: 'buttons' },
        free ? h('button', { type: 'button', class: 'small', onclick: () => joinRoom(r.code) }, t('home.joinBtn')) : null,
        s.spectators !== false ? h('a', { class: 'button small', href: '/watch/' + encodeURIComponent(r.code) }, t('home.watch')) : null)));
  }
}
if (list) {
  refresh();
  setInterval(refresh, 5000);
  $('#refresh-rooms')?.addEventListener('click', refresh);
}

// The daily challenge: today's tournament and the top of its leaderboard.
const dailyBoard = $('#daily-board');
async function refreshDaily() {
  if (!dailyBoard || document.hidden) return;
  let d, lb;
  try {
    d = await api('/api/daily');
    // Its list of leaders: held players and those not started left out.
    lb = await api('/api/tournaments/' + encodeURIComponent(d.id) + '/leaders?n=10');
  } catch { return; }
  const link = $('#daily-link');
  if (link) { link.href = d.link || '/t/' + encodeURIComponent(d.id); link.hidden = false; }
  const rows = lb?.rows || [];
  dailyBoard.replaceChildren();
  if (!rows.length) { dailyBoard.append(h('li', { class: 'note' }, t('home.dailyEmpty'))); return; }
  for (const r of rows) {
    dailyBoard.append(h('li', { 'data-testid': 'daily-row' },
      t('home.dailyRow', { place: r.placeText, name: r.name, toPar: r.toParText, thru: num(r.thru) })));
  }
}
if (dailyBoard) {
  refreshDaily();
  setInterval(refreshDaily, 30000);
}

// What is on now (GET /api/live, polled every 2 s while the page is
// shown): players online, games in play, the featured game to watch (its
// settled boards live, as a spectator sees them), the next scheduled
// tournaments with a countdown ticking every second, today's daily
// challenge's leaders and the top rated players.
const liveBox = $('#live-counts');
let scheduled = [];
function countdown(at) {
  const s = Math.round((Date.parse(at) - Date.now()) / 1000);
  if (s <= 0) return t('home.liveStarting');
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return t('home.liveStartsIn', { time: (d ? num(d) + 'd ' : '') + (d || hh ? hh + ':' + pad(mm) : mm) + ':' + pad(ss) });
}
function tickScheduled() {
  for (const el of document.querySelectorAll('#live-scheduled [data-starts]')) el.textContent = countdown(el.dataset.starts);
}
async function refreshLive() {
  if (!liveBox || document.hidden) return;
  let l;
  try { l = await api('/api/live'); } catch { return; }
  liveBox.textContent = t('home.liveCounts', { players: num(l.players), games: num(l.games), spectators: num(l.spectators) });
  const f = $('#live-featured');
  if (l.featured) {
    f.replaceChildren(h('a', { href: l.featured.link, 'data-testid': 'live-featured-link' },
      t('home.liveWatch', { players: playersText(l.featured.seats), hole: num(l.featured.hole) })),
    ' · ', h('a', { href: '/tv', 'data-testid': 'live-tv' }, t('home.liveTV')));
  } else f.replaceChildren(t('home.liveNone'));
  miniBoard(l.featured?.code || '');
  liveLists(l);
  scheduled = l.scheduled || [];
  const ul = $('#live-scheduled');
  ul.replaceChildren(...(scheduled.length ? scheduled.map((x) => h('li', { 'data-testid': 'live-tournament' },
    h('a', { href: x.link }, x.name), ' · ',
    h('time', { datetime: x.startsAt, 'data-starts': x.startsAt, 'data-testid': 'live-countdown' }, countdown(x.startsAt)))) : [h('li', { class: 'note' }, t('tour.listEmpty'))]));
}
// miniBoard watches the featured game (none: code '') in the live panel.
let mini = { code: '', watcher: null };
function miniBoard(code) {
  if (code === mini.code) return;
  mini.watcher?.stop();
  mini = { code, watcher: null };
  const box = $('#live-board');
  box.replaceChildren();
  box.dataset.code = code;
  if (!code) return;
  mini.watcher = watchRoom(code, {
    preview: true,
    onView: (vw) => { if (mini.code === code) box.replaceChildren(...settledBoards(vw, { waits: false })); },
    onGone: () => { if (mini.code === code) box.replaceChildren(); },
  });
}
function liveLists(l) {
  const rows = l.leaders?.rows || [];
  $('#live-leaders').replaceChildren(...(rows.length ? rows.map((r) => h('li', { 'data-testid': 'live-leader' },
    t('home.liveLeader', { place: r.placeText, name: r.name, toPar: r.toParText }))) : [h('li', { class: 'note' }, t('home.dailyEmpty'))]));
  const top = l.topRated?.leaders || [];
  $('#live-top').replaceChildren(...(top.length ? top.map((r) => h('li', { 'data-testid': 'live-top-player' },
    h('a', { href: '/@/' + encodeURIComponent(r.name) }, r.name), ' ', r.display)) : [h('li', { class: 'note' }, t('home.liveNoTop'))]));
}
if (liveBox) {
  refreshLive();
  setInterval(refreshLive, 2000);
  setInterval(tickScheduled, 1000);
}
