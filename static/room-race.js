// The room page's race rail: every player's standing and state, the
// others' boards in miniature (or full size, for a spectator), reactions.
import { $, $$, h, say } from './dom.js';
import { t, num } from './i18n.js';
import { renderBoard, waitText } from './board.js';
import { matchText } from './words.js';
import { heldTag } from './held.js';
import { parClass } from './scorecard.js';
import { state, send, who, foundationGame, stale } from './room-state.js';

// Reactions: a preset message, shown for a moment beside its sender.
export function showReaction(seat, id) {
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
  clearTimeout(state.reactTimers.get(seat));
  state.reactTimers.set(seat, setTimeout(() => bubble.remove(), 4000));
}
$('#reactions').addEventListener('click', (e) => {
  const b = e.target.closest('[data-react]');
  if (!b || state.you < 0) return;
  send({ type: 'react', reaction: b.dataset.react });
});

// renderRace is the rail beside the board: every player in standings
// order with strokes, to par, thru and whether they are still playing the
// hole; an opponent's board in miniature when the state.view carries it.
export function renderRace(vw) {
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
        mini.wait ? h('p', { class: 'wait', 'data-testid': 'wait-' + r.seat }, waitText(mini.wait, vw, state.you)) : null,
        renderBoard(mini, { label: t('race.board', { who: r.name }), foundation, outcome: false })) : null);
    const b = keep.get(String(r.seat));
    if (b) li.append(b);
    return li;
  }));
}

// renderBoards draws every seat's settled board full size for a
// spectator. A player sees the others' boards once, in miniature in the
// rail (renderRace), never again below.
export function renderBoards(vw) {
  const sec = $('#boards');
  const boards = vw.boards || []; // settled boards: every seat's (watching) or the others' (playing)
  sec.hidden = !boards.length || vw.status === 'waiting' || state.you >= 0;
  if (sec.hidden) return;
  const foundation = foundationGame(vw.settings);
  if (!stale(sec, [boards, vw.standings?.rows, vw.seats, vw.tournament, state.you, foundation])) return;
  const rows = new Map((vw.standings?.rows || []).map((r) => [r.seat, r]));
  sec.replaceChildren(...boards.map((b) => h('div', {}, h('h3', {}, vw.seats[b.seat]?.name || '?', rows.get(b.seat) ? h('span', { class: 'topar ' + parClass(rows.get(b.seat).toPar) }, ' ' + rows.get(b.seat).toParText) : null),
    b.wait ? h('p', { class: 'wait', 'data-testid': 'wait-' + b.seat }, waitText(b.wait, vw, state.you)) : null,
    renderBoard(b, { label: vw.seats[b.seat]?.name, foundation }))));
}

