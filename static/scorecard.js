// The scorecard, drawn the way golf scorecards are: holes across; the
// par, each player's strokes (a circle under par, a square over par), each
// player's running score to par and the best possible in rows of their
// own. The one renderer of scorecards: the room page and the how-to-play
// example both use it.
import { h } from './dom.js';
import { t, num, signed } from './i18n.js';

export function parClass(n) { return n < 0 ? 'under' : n > 0 ? 'over' : 'even'; }

// scoreMark draws a hole's strokes the way golf scorecards do: a circle
// under par (two for two or more under), a square over par (two for two
// or more over). The words are there for screen readers.
export function scoreMark(sc, par) {
  const d = sc - par;
  const kind = d <= -2 ? 'eagle' : d === -1 ? 'birdie' : d === 0 ? 'par' : d === 1 ? 'bogey' : 'double';
  return h('span', { class: 'mark ' + kind, title: signed(d) }, num(sc), h('span', { class: 'sr-only' }, ' (' + signed(d) + ')'));
}

// scorecard draws the table for a view's standings, its best possible
// scores (best) and the holes that may be replayed (revealed: their
// scores are buttons with data-replay-seat and data-replay-hole).
export function scorecard({ standings: st, best, revealed }) {
  best = best || [];
  revealed = revealed || [];
  const n = Math.max(st.holes, ...st.rows.map((r) => r.scores.length));
  const holes = [...Array(n).keys()];
  const bySeat = [...st.rows].sort((a, b) => a.seat - b.seat);
  const playerRows = bySeat.flatMap((r) => {
    let acc = 0;
    const strokes = h('tr', { class: 'strokes', 'data-testid': 'score-row-' + r.seat },
      h('th', { scope: 'row' }, r.name),
      holes.map((i) => {
        const sc = r.scores[i];
        if (sc === null || sc === undefined) return h('td', { class: 'none' }, h('span', { 'aria-hidden': 'true' }, '·'), h('span', { class: 'sr-only' }, t('score.notPlayed')));
        const vs = r.vsBest?.[i];
        const mark = scoreMark(sc, 5);
        if (vs !== null && vs !== undefined) mark.dataset.vsBest = String(vs);
        // A hole everyone has finished can be replayed from its score.
        const open = revealed.includes(i + 1)
          ? h('button', { type: 'button', class: 'cell-link', 'data-replay-seat': r.seat, 'data-replay-hole': i + 1, 'data-testid': `replay-${r.seat}-${i + 1}` }, mark, h('span', { class: 'sr-only' }, ' · ' + t('replay.open', { who: r.name, h: num(i + 1), score: num(sc) })))
          : mark;
        return h('td', { 'data-testid': `score-${r.seat}-${i + 1}` }, open);
      }),
      h('td', { class: 'total', 'data-testid': 'total-' + r.seat }, num(r.total)));
    const topar = h('tr', { class: 'topar-row', 'data-testid': 'topar-row-' + r.seat },
      h('th', { scope: 'row' }, h('span', { class: 'sr-only' }, r.name + ': '), t('score.toPar')),
      holes.map((i) => {
        const sc = r.scores[i];
        if (sc === null || sc === undefined) return h('td', {});
        acc += sc - 5;
        return h('td', { class: parClass(acc) }, signed(acc));
      }),
      h('td', { class: parClass(r.toPar), 'data-testid': 'topar-' + r.seat }, r.toParText));
    const vsRow = best.length && bySeat.some((x) => x.vsBest?.some((v) => v !== null && v !== undefined))
      ? h('tr', { class: 'vs-row' }, h('th', { scope: 'row' }, h('span', { class: 'sr-only' }, r.name + ': '), t('score.vsBestRow')),
        holes.map((i) => {
          const vs = r.vsBest?.[i];
          return h('td', vs !== null && vs !== undefined ? { 'data-testid': `vsbest-${r.seat}-${i + 1}` } : {}, vs !== null && vs !== undefined ? signed(vs) : '');
        }), h('td', {}))
      : null;
    return [strokes, topar, vsRow];
  });
  return h('div', { class: 'scroll-x', tabindex: n > 9 ? '0' : null, role: n > 9 ? 'region' : null, 'aria-label': n > 9 ? t('score.card') : null }, h('table', { class: 'scorecard', 'data-testid': 'scorecard' },
    h('caption', {}, t('score.card'), h('span', { class: 'legend' }, h('span', { class: 'mark birdie' }, '4'), ' ', t('score.under'), ' ', h('span', { class: 'mark bogey' }, '6'), ' ', t('score.over'))),
    h('thead', {},
      h('tr', {}, h('th', { scope: 'col' }, t('score.hole')), holes.map((i) => h('th', { scope: 'col' }, num(i + 1))), h('th', { scope: 'col' }, t('score.total'))),
      h('tr', { class: 'par' }, h('th', { scope: 'row' }, t('score.par')), holes.map(() => h('td', {}, num(5))), h('td', {}, num(st.par))),
      bestRow(best, holes)),
    h('tbody', {}, playerRows)));
}

// bestRow is the scorecard's "best possible" line: the solver's best score
// of each hole everyone has finished (never of a hole in play).
function bestRow(list, holes) {
  const best = new Map(list.map((b) => [b.hole, b]));
  if (!best.size) return null;
  return h('tr', { class: 'best', 'data-testid': 'best-row' }, h('th', { scope: 'row' }, t('score.best')),
    holes.map((i) => {
      const b = best.get(i + 1);
      return h('td', { 'data-testid': `best-${i + 1}` }, b ? num(b.best) + (b.exact ? '' : '≥') : '·');
    }), h('td', {}, num([...best.values()].reduce((a, b) => a + b.best, 0))));
}

