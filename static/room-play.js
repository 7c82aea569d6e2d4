// The room page's play: the player's board sized to the window, the
// moves it sends (clicks and keys), hints, help and the hole clock.
import { $, $$, say } from './dom.js';
import { t, num } from './i18n.js';
import { renderBoard } from './board.js';
import { listText } from './words.js';
import { store } from './store.js';
import { root, reduceMotion, state, send, board, foundationGame, stale } from './room-state.js';
import { hideSummary } from './room-moments.js';

// ---- commands ---------------------------------------------------------

// setPendingMove notes the move waiting for its ack (0: none); the page
// takes no other move meanwhile. data-pending says so (for the tests).
export function setPendingMove(seq) {
  state.pendingMove = seq;
  root.dataset.pending = seq ? 'true' : 'false';
  // A refused move leaves the board as it was, and it is not redrawn.
  if (!seq) for (const el of $$('#my-board .pending')) el.classList.remove('pending');
}

export function move(mv) {
  const b = board();
  if (!b || b.done || state.pendingMove || state.view?.status !== 'playing') return;
  if (/^\d+$/.test(mv) && !(b.playable || []).includes(Number(mv))) { if (b.playable?.length === 0 && b.canTurn) nudgeStock(); return; }
  if (mv === 's' && !b.canTurn) return;
  if (mv === 'r' && !b.canRedeal) return;
  if (mv === 'u' && !b.canUndo) return;
  state.fly?.finish();
  hideSummary();
  setPendingMove(send({ type: 'move', hole: b.hole, move: mv }));
  const el = $(`#my-board [data-move="${mv}"]`);
  el?.classList.add('pending');
}

// nudgeStock draws the eye to the stock when a card that cannot play is
// pressed and turning is the only move.
function nudgeStock() {
  const s = $('#my-board .stock .card');
  if (!s || reduceMotion.matches) return;
  s.animate([{ transform: 'none' }, { transform: 'translateY(-6px)' }, { transform: 'none' }], { duration: 260 });
}

// A tap anywhere on a column's visible strip of cards plays its free card.
$('#my-board').addEventListener('click', (e) => {
  const btn = e.target.closest('[data-move]') || e.target.closest('.pile')?.querySelector('[data-move]');
  if (btn) move(btn.dataset.move);
});
$('#undo').addEventListener('click', () => move('u'));
$('#hint').addEventListener('click', askHint);
$('#redeal').addEventListener('click', () => move('r'));
// Standing ends the hole: asked in the page (a dialog), unless no move is
// left anyway.
$('#stand').addEventListener('click', () => {
  const b = board();
  if (!b || b.done) return;
  if (b.over) { send({ type: 'stand', hole: b.hole }); return; }
  const d = $('#stand-dialog');
  d.returnValue = '';
  d.dataset.hole = String(b.hole);
  d.showModal();
});
$('#stand-dialog').addEventListener('close', () => {
  const d = $('#stand-dialog');
  const b = board();
  if (d.returnValue === 'stand' && b && !b.done && String(b.hole) === d.dataset.hole) send({ type: 'stand', hole: b.hole });
  $('#stand').focus({ preventScroll: true });
});
$('#help-btn').addEventListener('click', toggleHelp);

// Hints, in solo practice only: the server suggests a move from what the
// player sees (never the stock's order).
function askHint() {
  const b = board();
  if (!b || b.done || state.view?.settings?.seats !== 1) return;
  state.hintFor = `${b.hole}:${b.moves}`;
  send({ type: 'hint', hole: b.hole });
}
export function showHint(mv) {
  const b = board();
  if (!b || `${b.hole}:${b.moves}` !== state.hintFor) return; // the board moved on
  const what = !mv ? t('play.hintNone') : mv === 's' ? t('play.hintTurn') : mv === 'r' ? t('play.hintRedeal') : t('play.hintPile', { n: mv });
  const text = mv ? t('play.hintMove', { move: what }) : what;
  $('#hint-text').textContent = text;
  $('#hint-text').dataset.move = mv;
  say(text);
  for (const el of $$('#my-board [data-move]')) el.classList.toggle('hinted', el.dataset.move === mv);
}

function toggleHelp() {
  const help = $('#help');
  help.hidden = !help.hidden;
  $('#help-btn').setAttribute('aria-expanded', String(!help.hidden));
}

// keyHelp lists the keys that do something in this room.
function keyHelp(vw) {
  const s = vw.settings;
  const o = s.options || {};
  const n = vw.board?.piles?.length || 0;
  const items = [];
  if (n) items.push(t('keys.piles', { last: n >= 10 ? '0' : num(n) }));
  if (!foundationGame(s)) items.push(t('keys.space'));
  if (o.redeals) items.push(t('keys.redeal'));
  if (o.undo) items.push(t('keys.undo'));
  if (s.seats === 1) items.push(t('keys.hint'));
  items.push(t('keys.arrows'), t('keys.enter'), t('keys.help'));
  return items.join(' · ');
}

// Keyboard: 1-9 and 0 play a pile, Space turns the stock (wherever the
// focus is on the play screen: a focused card or button is pressed with
// Enter), R redeals, U undoes, H hints, ? shows help, arrows move focus
// between the cards, Escape closes the hole summary. Text fields, dialogs,
// the replay and the round's result keep their keys.
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.target.closest?.('dialog')) return;
  if (e.key === 'Escape' && !$('#hole-summary').hidden) { hideSummary(); return; }
  if (e.key === '?') { toggleHelp(); e.preventDefault(); return; }
  if (e.target.closest?.('#replay, #end')) return;
  const b = board();
  if (!b || $('#play').hidden || state.view?.status !== 'playing') return;
  if (/^[0-9]$/.test(e.key)) { move(String(e.key === '0' ? 10 : Number(e.key))); e.preventDefault(); return; }
  if (e.key === ' ') { state.spaceTaken = true; move('s'); e.preventDefault(); return; }
  if (e.key === 'r' || e.key === 'R') { move('r'); e.preventDefault(); return; }
  if (e.key === 'u' || e.key === 'U') { move('u'); e.preventDefault(); return; }
  if ((e.key === 'h' || e.key === 'H') && !$('#hint').hidden) { askHint(); e.preventDefault(); return; }
  if (e.key.startsWith('Arrow')) {
    const cards = $$('#my-board [data-move]');
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const step = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 1;
    const next = cards[(i < 0 ? 0 : i + step + cards.length) % cards.length];
    focusCard(next);
    e.preventDefault();
  }
});
// A focused card or button would take Space's keyup as a press: Space
// turned the stock instead (above), so its keyup is dropped.
document.addEventListener('keyup', (e) => {
  if (e.key === ' ' && state.spaceTaken) { state.spaceTaken = false; e.preventDefault(); }
});

function focusCard(el) {
  for (const c of $$('#my-board [data-move]')) c.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
  state.focusedMove = el.dataset.move;
}

// fitBoard sizes the cards so the whole board fits the space it has: the
// width of the play area and the height of the window below the header.
function fitBoard() {
  const el = $('#my-board .board');
  if (!el) return;
  const b = board();
  const box = $('#my-board');
  const cs = getComputedStyle(el);
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const aw = box.clientWidth - padX;
  const top = box.getBoundingClientRect().top + window.scrollY;
  const phone = window.innerWidth < 700;
  // Room under the board for the outcome line and the buttons.
  const ah = window.innerHeight - (phone ? 0 : top) - (phone ? 0 : 96) - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  let cw;
  if (b.layout === 'columns') {
    const n = b.piles.length;
    const cols = n > 10 ? Math.ceil(n / 2) : n;
    const rows = n > 10 ? 2 : 1;
    const depth = Math.max(5, ...b.piles.map((p) => p.length));
    const gap = phone ? 3 : 8;
    const byW = (aw - gap * (cols - 1)) / cols;
    // Tableau: 1.4 a card plus 0.4 for each card under it; the pad: the
    // waste, 1.25 cards wide, and its label.
    const byH = (ah - 40) / (rows * (1.4 + 0.4 * (depth - 1)) + 1.25 * 1.4 + 0.3);
    cw = Math.max(30, Math.min(phone ? byW : Math.min(byW, byH), 150));
    el.style.setProperty('--gap', gap + 'px');
  } else {
    // Peaks: a card is 2/w of the width; the height is cw * (0.7 (rows-1) + 1.4).
    const geo = { 'pyramid-golf': [14, 7] }[b.layout] || [20, 4];
    const byW = (2 * aw) / geo[0] - 2;
    const byH = (ah - 40) / (0.7 * (geo[1] - 1) + 1.4 + 1.25 * 1.4 + 0.3);
    cw = Math.max(24, Math.min(phone ? byW : Math.min(byW, byH), 130));
    cw = Math.floor(cw);
    el.style.setProperty('--tw', ((cw + 2) * geo[0]) / 2 + 20 + 'px');
    el.style.setProperty('--pcw', cw + 'px');
  }
  el.style.setProperty('--cw', Math.floor(cw) + 'px');
  el.classList.add('fit');
}
window.addEventListener('resize', () => { if (!$('#play').hidden) fitBoard(); });

export function renderPlay(vw) {
  const b = vw.board;
  const sec = $('#play');
  sec.hidden = !(b && state.you >= 0 && vw.status !== 'waiting');
  clearInterval(state.clockTimer);
  renderClock(vw);
  if (sec.hidden) return;
  const foundation = foundationGame(vw.settings);
  // Other players' moves redraw the page but not this board: a card
  // replaced between a press and its release would lose the click (and
  // the hint's mark and the focus with it).
  if (stale($('#my-board'), [b, vw.status, foundation])) {
    const hadFocus = sec.contains(document.activeElement) ? (document.activeElement.dataset.move || state.focusedMove) : null;
    // The outcome is said once, below the board (#outcome), not in it too.
    const el = renderBoard(b, { label: t('play.board'), interactive: vw.status === 'playing', foundation, outcome: false });
    $('#my-board').replaceChildren(el);
    fitBoard();
    const cards = $$('#my-board [data-move]');
    if (cards.length) {
      const keep = hadFocus && cards.find((c) => c.dataset.move === hadFocus);
      const first = keep || cards.find((c) => c.getAttribute('aria-disabled') === 'false') || cards[0];
      first.tabIndex = 0;
      if (keep) keep.focus({ preventScroll: true });
    }
  }
  // The stock pulses when turning it is the only move.
  const live = vw.status === 'playing' && !b.done && !b.over;
  $('#my-board .stock')?.classList.toggle('only-move', live && b.canTurn && !(b.playable || []).length);
  let msg = '';
  if (b.done || b.over) {
    msg = t(b.cleared || b.end === 'cleared' ? 'play.holedOut' : b.end === 'clock' ? 'play.timeUp' : b.end === 'away' ? 'play.awayEnd' : 'play.noMoves');
    if (b.done) msg += ' ' + t('play.yourScore', { score: num(b.score) });
    const still = vw.progress.filter((p) => !p.done && p.seat !== state.you).map((p) => vw.seats[p.seat]?.name || '?');
    if (b.done && vw.status === 'playing' && still.length) msg += ' ' + t('play.stillPlaying', { who: listText(still) });
  }
  $('#outcome').textContent = msg;
  root.dataset.board = b.done ? 'done' : b.over ? 'over' : 'live';
  root.dataset.hole = String(b.hole);
  // The one-time tip: in strict rules nothing plays on a king.
  const top = b.waste?.[b.waste.length - 1] || '';
  const strict = (vw.settings.options?.kings || '') === 'strict';
  // It stays until the player's next move (other players' moves redraw
  // the page too), and never shows again in this browser.
  const here = `${b.hole}:${b.moves}`;
  if (live && strict && top[0] === 'K' && !(b.playable || []).length && !state.tipShown) {
    state.tipShown = true;
    state.tipFor = here;
    store.setFlag('golf.tip.king', true);
    $('#tip').textContent = t('tip.king');
  }
  $('#tip').hidden = !live || state.tipFor !== here;
  $('#undo').hidden = !b.canUndo;
  $('#redeal').hidden = !b.canRedeal;
  const stand = $('#stand');
  stand.hidden = b.done || vw.status !== 'playing';
  stand.classList.toggle('primary', !!b.over);
  stand.classList.toggle('quiet', !b.over);
  stand.textContent = b.over ? t('play.endHole') : t('play.stand');
  $('#hint').hidden = b.done || b.over || vw.status !== 'playing' || vw.settings.seats !== 1;
  if (`${b.hole}:${b.moves}` !== state.hintFor) { $('#hint-text').textContent = ''; delete $('#hint-text').dataset.move; }
  $('#help-btn').hidden = vw.status !== 'playing';
  $('#help').textContent = keyHelp(vw);
  if (vw.status !== 'playing') $('#help').hidden = true;
}

// The hole clock, in the header; practice has none.
function renderClock(vw) {
  const clock = $('#clock');
  const b = vw.board;
  if (vw.clock && vw.status === 'playing' && !(b && b.done)) {
    const deadline = new Date(vw.clock.deadline).getTime();
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock.textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
      clock.setAttribute('aria-label', t('play.clock') + ' ' + clock.textContent);
      clock.classList.toggle('low', left <= 10);
      if (left === 10) { const live = $('#live'); live.setAttribute('aria-live', 'assertive'); say(t('play.clock') + ' ' + clock.textContent); setTimeout(() => live.setAttribute('aria-live', 'polite'), 1500); }
    };
    clock.hidden = false;
    clock.classList.remove('calm');
    tick();
    state.clockTimer = setInterval(tick, 1000);
  } else if (vw.settings.seats === 1 && vw.status === 'playing') {
    clock.hidden = false;
    clock.textContent = t('play.practiceNoClock');
    clock.removeAttribute('aria-label');
    clock.classList.remove('low');
    clock.classList.add('calm');
  } else clock.hidden = true;
}
