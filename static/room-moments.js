// The room page's moments: what a screen reader hears of each event, the
// card flying to the waste, runs and holing out, the hole's summary, sound.
import { $, h, say } from './dom.js';
import { t, num, cardName } from './i18n.js';
import { sfx, soundOn, setSound } from './sound.js';
import { listText, resultText, matchText } from './words.js';
import { scoreMark, parClass } from './scorecard.js';
import { place } from './spot.js';
import { reduceMotion, state, who } from './room-state.js';

// ---- announcements ----------------------------------------------------

export function announce(ev) {
  if (!ev) return;
  const parts = [];
  if (ev.kind === 'move' && ev.move) {
    const mine = ev.seat === state.you;
    if (ev.move === 'r') parts.push(t('play.redealt'));
    else if (ev.move === 'u') parts.push(t('play.undone'));
    else if (ev.card && (mine || state.you < 0)) {
      const card = cardName(ev.card);
      const turn = ev.move === 's';
      parts.push(mine ? t(turn ? 'play.youTurned' : 'play.youPlayed', { card }) : t(turn ? 'play.turned' : 'play.played', { who: who(ev.seat), card }));
    }
  } else if (ev.kind === 'join' && ev.name) parts.push(t('play.joined', { who: ev.name }));
  else if (ev.kind === 'ready' && ev.ready) parts.push(t('play.isReady', { who: who(ev.seat) }));
  for (const n of ev.notices || []) {
    if (n.kind === 'seatDone') parts.push(t((n.seat || 0) === state.you ? 'play.youDone' : 'play.seatDone', { who: who(n.seat || 0), h: num(n.hole), score: num(n.score || 0) }));
    else if (n.kind === 'holeStarted') parts.push(t('play.holeStarted', { h: num(n.hole) }));
    else if (n.kind === 'roundEnded') parts.push(t('play.roundEnded') + ': ' + resultText(state.view));
    else if (n.kind === 'started') parts.push(t('play.started'));
  }
  if (parts.length) say(parts.join('. '));
}

// ---- motion: the card flying to the waste, the stock's turn ------------
//
// Web Animations, quick and interruptible; none at all when the player
// asks for reduced motion.

export function flyFrom(ev) {
  if (reduceMotion.matches || !ev.move) return null;
  const sel = ev.move === 's' ? '#my-board .stock .card' : /^\d+$/.test(ev.move) ? `#my-board [data-move="${ev.move}"] .card` : null;
  const el = sel && $(sel);
  return el ? { rect: el.getBoundingClientRect(), turn: ev.move === 's' } : null;
}

export function flyTo(from) {
  const target = $('#my-board .waste .card');
  if (!target) return;
  state.fly?.cancel();
  const to = target.getBoundingClientRect();
  const clone = target.cloneNode(true);
  clone.classList.add('fly');
  clone.removeAttribute('aria-label');
  clone.setAttribute('aria-hidden', 'true');
  for (const [k, v] of Object.entries({ left: to.left + 'px', top: to.top + 'px', width: to.width + 'px' })) clone.style.setProperty(k, v);
  document.body.append(clone);
  target.style.setProperty('visibility', 'hidden');
  const dx = from.rect.left - to.left;
  const dy = from.rect.top - to.top;
  const s = from.rect.width / to.width;
  const frames = from.turn
    // The stock's card turns over on its way: a flip about its upright axis.
    ? [{ transform: `translate(${dx}px, ${dy}px) scale(${s}) rotateY(90deg)` }, { transform: `translate(${dx / 2}px, ${dy / 2}px) rotateY(45deg)`, offset: 0.4 }, { transform: 'none' }]
    : [{ transform: `translate(${dx}px, ${dy}px) scale(${s}) rotate(-4deg)`, boxShadow: '0 12px 24px #0006' }, { transform: 'none', boxShadow: '0 1px 2px #0003' }];
  state.fly = clone.animate(frames, { duration: from.turn ? 200 : 230, easing: 'cubic-bezier(.2,.8,.3,1)' });
  const done = () => { clone.remove(); target.style.removeProperty('visibility'); state.fly = null; };
  state.fly.onfinish = done;
  state.fly.oncancel = done;
}

// ---- moments: hole summary, celebrations, the round's result ----------

function toast(text, kind) {
  const el = $('#toast');
  clearTimeout(state.toastTimer);
  el.replaceChildren(h('span', { class: 'toast-text' }, text));
  if (kind === 'holed' && !reduceMotion.matches) {
    // A burst of suits from the middle of the board.
    const burst = h('span', { class: 'burst', 'aria-hidden': 'true' });
    for (let i = 0; i < 14; i++) {
      const p = h('span', { class: 'spark ' + (i % 2 ? 'red' : '') }, '♣♦♥♠'[i % 4]);
      p.style.setProperty('--a', `${(360 / 14) * i}deg`);
      p.style.setProperty('--d', `${90 + (i % 3) * 30}px`);
      burst.append(p);
    }
    el.append(burst);
  }
  el.dataset.kind = kind;
  el.hidden = false;
  // Beside the cards, never over them (nor over the round's result).
  for (const k of ['width', 'left', 'top', 'max-height']) el.style.removeProperty(k);
  el.style.setProperty('left', '0');
  const w = Math.ceil(el.querySelector('.toast-text').getBoundingClientRect().width);
  el.style.setProperty('transform', 'none');
  place(el, { minW: w, maxW: w, centre: true });
  // A run's bubble gives way to the round's result; holing out the last
  // hole is still celebrated, beneath the result card.
  if (!$('#end').hidden && kind !== 'holed') el.hidden = true;
  state.toastTimer = setTimeout(() => { el.hidden = true; }, kind === 'holed' ? 2200 : 1500);
}

// moments compares the state.view before an event with the one after it and
// marks what happened: a long run, holing out, the end of a hole for
// everyone (the summary) and of the round.
export function moments(before, after, ev) {
  if (!after) return;
  const b = after.board;
  const was = before?.board;
  if (b && was && b.hole === was.hole && ev?.seat === state.you) {
    if (ev.kind === 'move' && /^\d+$/.test(ev.move || '')) sfx('play', b.run);
    if (ev.kind === 'move' && ev.move === 's') sfx('turn');
    if (b.run >= 5 && b.run > state.lastRun && (b.run === 5 || b.run === 8 || b.run % 5 === 0) && !b.cleared) {
      toast(t('moment.run', { n: num(b.run) }), 'run');
      say(t('moment.run', { n: num(b.run) }));
    }
    if (b.cleared && !was.cleared) {
      toast(t('play.holedOut'), 'holed');
      sfx('holed');
    }
  }
  state.lastRun = b ? b.run : 0;
  for (const n of ev?.notices || []) {
    if (n.kind === 'holeStarted' && n.hole > 1) showSummary(after, n.hole - 1);
    if (n.kind === 'roundEnded') { hideSummary(); sfx('end'); }
  }
}

export function hideSummary() {
  clearTimeout(state.summaryTimer);
  $('#hole-summary').hidden = true;
}

// showSummary puts the hole's scores over the board for a few seconds:
// every player's score, the running totals, who leads and the best
// possible score of the hole (only once everyone has finished it).
function showSummary(vw, hole) {
  const st = vw.standings;
  if (!st || vw.settings.seats === 1 && !st.rows[0]) return;
  const best = (vw.best || []).find((x) => x.hole === hole);
  const rows = [...st.rows].map((r) => {
    const sc = r.scores[hole - 1];
    return h('tr', { 'data-testid': 'summary-row-' + r.seat },
      h('th', { scope: 'row' }, r.name, r.seat === state.you ? h('span', { class: 'tag' }, t('room.you')) : null),
      h('td', {}, sc === null || sc === undefined ? '·' : scoreMark(sc, 5)),
      h('td', {}, num(r.total)), h('td', { class: parClass(r.toPar) }, r.toParText));
  });
  const leaders = st.rows.filter((r) => r.place === 1).map((r) => r.name);
  const lead = st.match ? matchText(st) : leaders.length > 1 ? t('summary.tied', { who: listText(leaders) }) : t('summary.leads', { who: leaders[0] || '?' });
  $('#summary-title').textContent = t('summary.title', { h: num(hole) });
  $('#summary-body').replaceChildren(...[
    h('table', { class: 'summary-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('score.player')), h('th', { scope: 'col' }, t('summary.hole', { h: num(hole) })), h('th', { scope: 'col' }, t('score.total')), h('th', { scope: 'col' }, t('score.toPar')))),
      h('tbody', {}, rows)),
    h('p', { class: 'lead', 'data-testid': 'summary-lead' }, lead),
    best ? bestLine(hole, best) : null,
    h('p', { class: 'note', 'data-testid': 'summary-next' }, t('summary.next', { h: num(hole + 1) }))].filter(Boolean));
  state.summaryHole = hole;
  $('#hole-summary').hidden = false;
  placeSummary();
  clearTimeout(state.toastTimer);
  $('#toast').hidden = true; // a celebration of the hole just over gives way
  say($('#summary-title').textContent + '. ' + lead);
  clearTimeout(state.summaryTimer);
  state.summaryTimer = setTimeout(hideSummary, 7000);
}
$('#summary-close').addEventListener('click', hideSummary);

// placeSummary keeps the open summary beside the cards of the hole in
// play, never over them: that hole is live, and its cards take clicks.
function placeSummary() {
  if ($('#hole-summary').hidden) return;
  place($('#hole-summary .moment-card'), { minW: 260, maxW: 440 });
}
window.addEventListener('resize', placeSummary);
window.addEventListener('scroll', placeSummary, { passive: true });

function bestLine(hole, best) {
  return h('p', { class: 'note', 'data-testid': 'summary-best' }, t('end.bestHole', { h: num(hole), best: num(best.best) + (best.exact ? '' : '≥') }));
}

// summaryBest adds the hole's best possible score to an open summary when
// the solver's answer comes after the summary opened.
export function summaryBest(vw) {
  if ($('#hole-summary').hidden || $('[data-testid=summary-best]')) return;
  const best = (vw.best || []).find((x) => x.hole === state.summaryHole);
  if (best) $('[data-testid=summary-next]').before(bestLine(state.summaryHole, best));
  placeSummary();
}

$('#sound').addEventListener('click', () => {
  setSound(!soundOn());
  $('#sound').setAttribute('aria-pressed', String(soundOn()));
  if (soundOn()) sfx('turn');
});
$('#sound').setAttribute('aria-pressed', String(soundOn()));
