// The TV: /tv watches the featured game (GET /api/live) and, when it
// ends, says so and switches to the next one; /tv/@/{name} follows one
// player (GET /api/live/players/{name}) into each public game they play.
// Both watch as any spectator does (watch.js): settled boards only.
import './prefs.js';
import { $, h, say } from './dom.js';
import { t, num } from './i18n.js';
import { api } from './api.js';
import { resultText, matchText } from './words.js';
import { watchRoom, settledBoards, playersText } from './watch.js';

const root = $('#tv');
const player = root.dataset.player || '';
// How often a game to watch is looked for, and how long "Game over" shows
// before the next game.
const lookEvery = 2000;
const overFor = 3000;
// A room that ended is not taken up again for this long (a rematch in it
// is, after).
const endedFor = 10000;
const justEnded = (code) => Date.now() - (state.ended.get(code) || 0) < endedFor;

const state = {
  code: '', // the room watched
  watcher: null,
  ended: new Map(), // room -> when it was seen finished: not watched again for endedFor
  timer: 0,
  over: '', // the "Game over: …" line of the game that just ended
};

function status(text) {
  $('#tv-status').textContent = text;
  root.dataset.status = text ? 'note' : '';
}

// find is the next game to watch: {code, seats} or null.
async function find() {
  if (player) {
    try {
      const p = await api('/api/live/players/' + encodeURIComponent(player));
      return justEnded(p.code) ? null : { code: p.code, seats: null };
    } catch { return null; }
  }
  try {
    const l = await api('/api/live');
    const f = l?.featured;
    return f && !justEnded(f.code) ? { code: f.code, seats: f.seats } : null;
  } catch { return null; }
}

// look looks for a game until one is found, then watches it (after the
// "Game over … Switching to …" line when one just ended).
async function look() {
  clearTimeout(state.timer);
  if (state.watcher) return;
  const g = await find();
  if (!g) {
    const waiting = player ? t('tv.notPlaying', { name: player }) : t('tv.none');
    status(state.over ? state.over + ' ' + t('tv.nextWait') : waiting);
    root.dataset.state = state.over ? 'over' : 'idle';
    state.timer = setTimeout(look, lookEvery);
    return;
  }
  if (state.over) {
    const line = state.over + ' ' + t('tv.switching', { players: g.seats ? playersText(g.seats) : player });
    status(line);
    say(line);
    root.dataset.state = 'switching';
    state.over = '';
    state.timer = setTimeout(() => watch(g.code), overFor);
    return;
  }
  watch(g.code);
}

function watch(code) {
  if (state.watcher) state.watcher.stop();
  state.code = code;
  root.dataset.code = code;
  root.dataset.state = 'watching';
  status(t('tv.watching'));
  state.watcher = watchRoom(code, {
    onView: (vw) => show(code, vw),
    onGone: () => ended(code, t('tv.gone')),
  });
}

// ended stops watching the room and looks for the next game.
function ended(code, line) {
  if (code !== state.code) return;
  state.watcher?.stop();
  state.watcher = null;
  state.ended.set(code, Date.now());
  state.over = line;
  root.dataset.state = 'over';
  status(line);
  say(line);
  state.timer = setTimeout(look, overFor);
}

function show(code, vw) {
  if (code !== state.code) return;
  const hole = vw.hole || 0;
  const names = (vw.seats || []).map((s) => s.name);
  $('#tv-game').replaceChildren(
    t('tv.game', { players: playersText(names), hole: num(hole), holes: num(vw.settings?.holes || 0) }), ' · ',
    h('a', { href: '/watch/' + encodeURIComponent(code), 'data-testid': 'tv-open' }, t('tv.open')));
  const st = vw.standings;
  $('#tv-standings').textContent = vw.status === 'waiting' ? t('tv.waiting')
    : st?.match ? matchText(st) : (st?.rows || []).map((r) => r.placeText + '. ' + r.name + ' ' + r.toParText).join(' · ');
  $('#tv-boards').replaceChildren(...(vw.status === 'playing' || vw.status === 'finished' ? settledBoards(vw) : []));
  root.dataset.v = String(vw.v || 0);
  if (vw.status === 'finished') ended(code, t('tv.over', { result: resultText(vw) }));
}

look();
