// Drawing boards: the same markup as templates/board.templ, built live
// from the server's view. Nothing here decides what is legal: playable
// piles come from the server (board.playable).
import { h } from './dom.js';
import { t, cardName, num } from './i18n.js';

// foundationGame: the games whose waste is a foundation and that have no
// stock (their boards are drawn as such).
export const foundationGame = (s) => s?.game === 'black-hole' || s?.game === 'all-in-a-row';

// waitText says, in the page's language, why a settled board waits: whose
// stock turn holds it back (match.Wait), or that it shows once the hole is
// over (seat -1: a game without a stock, or a tournament hole). you is
// the reader's own seat, if any.
export function waitText(w, vw, you = -1) {
  if (w.seat < 0) return t(vw.tournament ? 'wait.tournament' : 'wait.noStock');
  if (w.seat === you) return t('wait.you', { n: num(w.card) });
  return t('wait.turn', { who: vw.seats?.[w.seat]?.name || '?', n: num(w.card) });
}

const suitSym = { C: '♣', D: '♦', H: '♥', S: '♠' };
const rankText = (c) => (c === 'JK' ? '★' : c[0] === 'T' ? '10' : c[0]);

function cardClass(code) {
  if (code === '??') return 'card back';
  if (code === 'JK') return 'card joker';
  if (code && code.length === 2) return 'card suit-' + code[1].toLowerCase();
  return 'card none';
}

// cardFace draws a card: rank and suit in two corners, a big suit pip.
export function cardFace(code) {
  const el = h('span', { class: cardClass(code), role: 'img', 'aria-label': cardName(code), 'data-card': code });
  if (code && code !== '??') {
    const s = suitSym[code[1]] || '';
    // Rank and suit are drawn by CSS from data attributes, so a button's
    // visible text never differs from its name.
    el.append(
      h('span', { class: 'idx', 'aria-hidden': 'true', 'data-r': rankText(code), 'data-s': s }),
      h('span', { class: 'pip', 'aria-hidden': 'true', 'data-s': s }),
      h('span', { class: 'idx br', 'aria-hidden': 'true', 'data-r': rankText(code), 'data-s': s }),
    );
  }
  return el;
}

// peakPosition mirrors templates.PeakPosition: x in half cards, y in rows.
export function peakPosition(shape, p) {
  if (shape === 'pyramid-golf') {
    let r = 0;
    while (((r + 1) * (r + 2)) / 2 <= p) r++;
    const i = p - (r * (r + 1)) / 2;
    return { x: 6 - r + 2 * i, y: r, w: 14, rows: 7 };
  }
  if (p < 3) return { x: 6 * p + 3, y: 0, w: 20, rows: 4 };
  if (p < 9) { const q = p - 3; return { x: 2 * (q + Math.floor(q / 2)) + 2, y: 1, w: 20, rows: 4 }; }
  if (p < 18) return { x: 2 * (p - 9) + 1, y: 2, w: 20, rows: 4 };
  return { x: 2 * (p - 18), y: 3, w: 20, rows: 4 };
}

function topCard(code, pile, playable, interactive) {
  if (!interactive) {
    return h('span', { class: 'slot top' + (playable ? ' playable' : ''), 'data-pile': pile }, cardFace(code));
  }
  let label = cardName(code) + ', ' + t('play.pile', { n: pile });
  if (playable) label += ', ' + t('play.playable');
  return h('button', {
    type: 'button', class: 'slot top' + (playable ? ' playable' : ''), 'data-move': String(pile),
    'data-testid': 'play-' + pile, 'aria-disabled': playable ? 'false' : 'true', 'aria-label': label, tabindex: '-1',
  }, cardFace(code));
}

export function outcomeKey(b) {
  if (b.cleared || b.end === 'cleared') return 'play.holedOut';
  if (b.end === 'clock') return 'play.timeUp';
  if (b.end === 'away') return 'play.awayEnd';
  return 'play.noMoves';
}

// vars sets CSS custom properties through the CSSOM (allowed by a
// Content-Security-Policy that forbids style attributes).
function vars(el, props) {
  for (const [k, v] of Object.entries(props)) el.style.setProperty(k, String(v));
  return el;
}

// renderBoard draws a board. With interactive, free cards and the stock
// are buttons carrying data-move; the room script handles their clicks.
export function renderBoard(b, { label, interactive = false, foundation = false, outcome = true } = {}) {
  const playable = new Set(b.playable || []);
  const live = interactive && !b.done;
  let tableau;
  if (b.layout === 'columns') {
    const n = b.piles.length;
    const cols = n > 10 ? Math.ceil(n / 2) : n;
    tableau = h('div', { class: 'tableau columns', 'data-testid': 'tableau' });
    vars(tableau, { '--piles': n, '--cols': cols });
    b.piles.forEach((pile, i) => {
      const el = h('div', { class: 'pile', 'data-pile': i + 1, 'data-testid': 'pile-' + (i + 1) });
      pile.forEach((c, j) => {
        el.append(j === pile.length - 1 ? topCard(c, i + 1, playable.has(i + 1), live) : h('span', { class: 'slot' }, cardFace(c)));
      });
      if (pile.length === 0) el.append(h('span', { class: 'slot empty', role: 'img', 'aria-label': t('play.pile', { n: i + 1 }) + ': ' + t('play.empty') }));
      tableau.append(el);
    });
  } else {
    const { w, rows } = peakPosition(b.layout, 0);
    tableau = h('div', { class: 'tableau peaks', 'data-testid': 'tableau' });
    vars(tableau, { '--w': w, '--rows': rows });
    b.piles.forEach((pile, i) => {
      if (!pile.length || !pile[0]) return;
      const { x, y } = peakPosition(b.layout, i);
      tableau.append(vars(h('div', { class: 'peak', 'data-pile': i + 1 }, topCard(pile[0], i + 1, playable.has(i + 1), live)), { '--x': x, '--y': y }));
    });
  }
  const top = b.waste && b.waste.length ? b.waste[b.waste.length - 1] : '';
  const wasteLabel = foundation ? t('play.foundation') : t('play.waste');
  const waste = h('div', { class: 'waste', 'data-testid': 'waste' }, h('span', { class: 'label' }, wasteLabel),
    top ? cardFace(top) : h('span', { class: 'card none', role: 'img', 'aria-label': wasteLabel + ': ' + t('play.noCard') }));
  // An empty stock is an empty slot, not a card back.
  let stockCard;
  if (!b.stockLeft) stockCard = h('span', { class: 'card none', role: 'img', 'data-testid': 'stock-empty', 'aria-label': t('play.stock') + ': ' + t('play.empty') });
  else if (live) stockCard = h('button', { type: 'button', class: 'card back', 'data-move': 's', 'data-testid': 'turn', disabled: !b.canTurn, 'aria-label': t('play.turn') + ' (' + num(b.stockLeft) + ')', tabindex: '-1' }, h('span', { class: 'count', 'aria-hidden': 'true', 'data-n': num(b.stockLeft) }));
  else stockCard = h('span', { class: 'card back', role: 'img', 'aria-label': t('play.stockLeft') + ': ' + num(b.stockLeft) }, h('span', { class: 'count', 'aria-hidden': 'true', 'data-n': num(b.stockLeft) }));
  const stock = foundation ? null : h('div', { class: 'stock', 'data-testid': 'stock' }, h('span', { class: 'label' }, t('play.stock')), stockCard);
  const fact = (key, v, id) => h('div', {}, h('dt', {}, t(key)), h('dd', { 'data-testid': id }, num(v)));
  const facts = h('dl', { class: 'facts' }, fact('play.run', b.run, 'run'), fact('play.cardsLeft', b.cardsLeft, 'cards-left'),
    foundation ? null : fact('play.stockLeft', b.stockLeft, 'stock-left'));
  const section = h('section', { class: 'board layout-' + b.layout, 'data-testid': 'board-' + b.seat, 'data-layout': b.layout, 'aria-label': label || t('play.board') },
    tableau, h('div', { class: 'pad' }, facts, h('div', { class: 'piles-pad' }, stock, waste)));
  if (outcome && (b.done || b.over)) section.append(h('p', { class: 'outcome', 'data-testid': 'board-outcome' }, t(outcomeKey(b))));
  return section;
}
