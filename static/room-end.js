// The room page's scores and the round's end: standings, the scorecard,
// the result with its chart and proof, and the replays of finished holes.
import { $, h, svg, say } from './dom.js';
import { t, num, signed } from './i18n.js';
import { api, errorText } from './api.js';
import { resultText, matchText } from './words.js';
import { heldTag } from './held.js';
import { replayPlayer } from './replay.js';
import { scorecard, parClass } from './scorecard.js';
import { showReview } from './review.js';
import { root, code, reduceMotion, state, send, who, foundationGame, stale } from './room-state.js';

export function renderScores(vw) {
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

export function renderEnd(vw) {
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

// ---- replay -------------------------------------------------------------
//
// Any player's game of a hole that everyone has finished, or the solver's
// best line of it, in the one replay player (replay.js); the pickers choose
// the player and the hole.

const player = replayPlayer('replay');

export function renderReplay(vw) {
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
