// The one replay player: a game of a hole board by board (a player's, or
// the solver's best line), from the boards the server sends. It drives the
// markup of templates.ReplayPlayer: first / previous / next / last (the
// buttons, or the arrow keys, Home and End while the player has focus),
// the step counter and what each move did.
import { $, say } from './dom.js';
import { t, num, cardName } from './i18n.js';
import { renderBoard } from './board.js';

function topOf(b, pile) {
  const p = b?.piles?.[pile - 1] || [];
  return b?.layout === 'columns' ? p[p.length - 1] : p[0];
}

// replayPlayer wires the player whose ids start with id.
export function replayPlayer(id) {
  const part = (name) => $('#' + id + '-' + name);
  const box = part('player');
  let r = null; // {moves, boards, score, end, i, foundation}

  const last = () => (r ? r.boards.length - 1 : 0);

  // moveText says what move k (1-based) did.
  function moveText(k) {
    if (!r) return '';
    if (k === 0) return t('replay.deal', { n: num(r.boards[0]?.cardsLeft ?? 0) });
    const m = r.moves[k - 1];
    const before = r.boards[k - 1];
    const after = r.boards[k];
    let text;
    if (m === undefined) text = '';
    else if (m === 's') text = t('replay.turned', { card: cardName(after?.waste?.[after.waste.length - 1]) });
    else if (m === 'r') text = t('play.redealt');
    else if (m === 'u') text = t('play.undone');
    else text = t('replay.played', { card: cardName(topOf(before, Number(m))), n: num(Number(m)) });
    if (k === r.moves.length && (r.end || after?.over)) text += '. ' + t('replay.over', { score: num(r.score ?? 0) });
    return text;
  }

  function draw(speak) {
    if (!r) return;
    const step = t('end.step', { i: num(r.i), n: num(last()) });
    const b = r.boards[r.i];
    part('view').replaceChildren(b ? renderBoard(b, { label: t('end.replay') + ': ' + step, foundation: r.foundation }) : '');
    part('step').textContent = step;
    part('move').textContent = moveText(r.i);
    box.dataset.step = String(r.i);
    box.dataset.last = String(last());
    part('first').disabled = part('prev').disabled = r.i <= 0;
    part('next').disabled = part('last').disabled = r.i >= last();
    if (speak) say(step + '. ' + moveText(r.i));
  }

  function go(i) {
    if (!r) return;
    const next = Math.max(0, Math.min(last(), i));
    if (next === r.i) return;
    r.i = next;
    draw(true);
  }

  part('first').addEventListener('click', () => go(0));
  part('prev').addEventListener('click', () => go((r?.i ?? 0) - 1));
  part('next').addEventListener('click', () => go((r?.i ?? 0) + 1));
  part('last').addEventListener('click', () => go(last()));
  box.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || !r) return;
    const to = { ArrowLeft: r.i - 1, ArrowUp: r.i - 1, ArrowRight: r.i + 1, ArrowDown: r.i + 1, Home: 0, End: last() }[e.key];
    if (to === undefined) return;
    go(to);
    e.preventDefault();
    e.stopPropagation();
  });

  return {
    // show opens a replay (the server's {moves, boards, score, end}) at
    // its first board, under the title who.
    show(data, { who, foundation = false, best = false, focus = true }) {
      r = { moves: data.moves || [], boards: data.boards || [], score: data.score, end: data.end, i: 0, foundation };
      box.hidden = false;
      if (best) box.dataset.best = 'true';
      else delete box.dataset.best;
      part('who').textContent = who;
      draw(false);
      if (focus) box.focus();
    },
    // seek shows the board after move i.
    seek(i) { go(i); },
    // close hides the player and forgets its replay.
    close() { r = null; box.hidden = true; },
    get open() { return !!r; },
  };
}
