// The post-round analysis beside a replay, like a chess site's analysis
// board: the best score still reachable after each of the player's moves
// (GET /api/rooms/{code}/holes/{h}/analysis, the solver with the deal
// known, as the hole is over), the costly moves marked on the graph and
// listed, each a button that steps the replay to it.
import { $, h, svg } from './dom.js';
import { t, num } from './i18n.js';
import { api, errorText } from './api.js';

// glyph marks a move by the strokes it lost: ?? three or more, ? two,
// ?! one.
export const glyph = (lost) => (lost >= 3 ? '??' : lost === 2 ? '?' : lost === 1 ? '?!' : '');

// moveWords names a decision: "pile 3", "stock", "redeal", "stand".
function moveWords(m) {
  if (m === 's') return t('review.stock');
  if (m === 'r') return t('review.redeal');
  if (m === 'stand') return t('review.stand');
  return t('review.pile', { n: num(Number(m)) });
}

// graph draws the best reachable score before the first move and after
// each one; a costly move is a red dot.
function graph(rv, seek) {
  const ds = rv.decisions;
  const ys = [rv.best, ...ds.map((d) => d.after)];
  const n = Math.max(1, ds.length);
  const lo = Math.min(...ys) - 1;
  const hi = Math.max(...ys) + 1;
  const W = 520, H = 180, L = 30, R = 10, T = 8, B = 20;
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'review-graph', 'data-testid': 'analysis-graph', 'aria-label': t('review.graph') });
  for (const v of [...new Set([Math.min(...ys), Math.max(...ys)])]) {
    g.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#bbb', 'stroke-dasharray': '3 3' }),
      svg('text', { x: 2, y: y(v) + 4, 'font-size': 11 }, num(v)));
  }
  g.append(svg('polyline', { points: ys.map((v, i) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: '#0b5fa5', 'stroke-width': 2.5 }));
  ds.forEach((d, i) => {
    if (d.lost <= 0) return;
    const dot = svg('circle', { cx: x(i + 1), cy: y(d.after), r: 5, fill: '#c0182b', 'data-testid': 'analysis-mark', 'data-move': i + 1 });
    dot.append(svg('title', {}, `${num(i + 1)}. ${moveWords(d.move)} ${glyph(d.lost)} −${num(d.lost)}`));
    if (seek) { dot.style.setProperty('cursor', 'pointer'); dot.addEventListener('click', () => seek(i + 1)); }
    g.append(dot);
  });
  return g;
}

// showReview fills box with the analysis of seat's game of the hole;
// seek(i) steps the replay to after move i (none when moves were taken
// back: the replay's steps then are not the decisions).
export async function showReview(box, code, hole, seat, seek) {
  box.hidden = false;
  box.replaceChildren(h('p', { class: 'note' }, t('review.loading')));
  let rv;
  try {
    rv = await api(`/api/rooms/${encodeURIComponent(code)}/holes/${hole}/analysis?seat=${seat}`);
  } catch (err) {
    box.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(err)));
    return;
  }
  const go = rv.undone ? null : seek;
  const costly = rv.decisions.map((d, i) => ({ ...d, i: i + 1 })).filter((d) => d.lost > 0);
  const lost = rv.score - rv.best;
  box.replaceChildren(
    h('h3', {}, t('review.title')),
    h('p', { 'data-testid': 'analysis-summary' }, t(lost ? 'review.summary' : 'review.perfect', { best: num(rv.best), score: num(rv.score), lost: num(lost), n: num(costly.length) }) + (rv.exact ? '' : ' ' + t('review.inexact'))),
    graph(rv, go),
    costly.length ? h('ol', { class: 'review-moves', 'data-testid': 'analysis-moves' }, costly.map((d) => h('li', { value: d.i },
      h('button', { type: 'button', class: 'small', 'data-testid': 'analysis-move', 'data-move': d.i, disabled: !go, onclick: () => go?.(d.i) },
        `${moveWords(d.move)} ${glyph(d.lost)}`), ' ',
      t('review.lost', { n: num(d.lost) }),
      d.better ? ' · ' + t('review.better', { move: moveWords(d.better) }) : ''))) : '',
    rv.undone ? h('p', { class: 'note' }, t('review.undone', { n: num(rv.undone) })) : '');
}
