// The room page's state: the room, the seat and everything the page keeps
// between the server's messages (every module's mutable state is here),
// sending commands, and the redraw check (stale, checkRedraws).
import { $ } from './dom.js';
import { normalizeCode, loadSeat } from './api.js';
import { store } from './store.js';

export const root = $('#room');
export const code = normalizeCode(root.dataset.code);
export const watching = root.dataset.watch === 'true';
export const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

// Everything the page keeps between the server's messages.
export const state = {
  token: watching ? null : loadSeat(code)?.token || null, // the seat token (none: watching)
  lastV: 0, // the version of the view drawn
  view: null, // the server's latest view
  you: -1, // our seat (-1: watching)
  seq: Date.now(), // the last command's sequence number
  pending: new Map(), // seq -> command, resent after reconnect until acked
  pendingMove: 0, // seq of the move waiting for its ack
  leaving: false, // we asked to leave the room
  autoStarted: 0, // the round solo practice was started for
  hostReady: 0, // the round the host of an auto-starting room said ready for
  fly: null, // the card flying to the waste
  lastRun: 0, // the run at the last event, for its celebration
  summaryTimer: 0,
  summaryHole: 0, // the hole the open summary is about
  toastTimer: 0,
  hintFor: '', // the board (hole:moves) the hint asked is for
  focusedMove: null, // the card with the keyboard focus
  renderTimer: 0,
  endDismissed: 0, // the round whose result the player closed
  clockTimer: 0,
  tipShown: store.flag('golf.tip.king'), // the king tip is shown once
  tipFor: '', // the board (hole:moves) the king tip is shown on
  spaceTaken: false, // Space's keydown turned the stock: its keyup presses nothing
  replayOpen: false, // a replay opened from the scorecard during play
  replayRound: 0, // the round the replay pickers are for
  replayTried: false, // the end-of-round replay was opened
  holePicked: false, // the player chose a hole in the picker
  drawn: new Map(), // element -> the inputs it was drawn from (stale)
  checking: false, // golf.checkRedraw: stale draws every part again (tests)
  checks: [], // the parts drawn again from unchanged inputs in this render
  reactTimers: new Map(), // seat -> the timer that takes its reaction's bubble away
  socket: null, // the page's one socket (socket.js), opened last by room.js
};

// ---- connection -------------------------------------------------------

export function banner(text, ok = false) {
  const b = $('#banner');
  b.hidden = !text;
  b.textContent = text || '';
  b.classList.toggle('ok', ok);
  root.dataset.conn = text ? 'down' : 'up';
}

export function send(cmd) {
  const m = { ...cmd, seq: ++state.seq };
  state.pending.set(m.seq, m);
  state.socket.send(m);
  return m.seq;
}

// gone stops the page's socket for good, saying why.
export function gone(text) {
  banner(text);
  state.socket.stop();
}

export const who = (s) => (state.view?.seats?.[s]?.name ?? '?');

export function board() { return state.view?.board || null; }

export { foundationGame } from './board.js';

// stale reports whether el must be drawn again from these inputs: they
// changed since it was last drawn, or it is empty. Each part of the page
// is drawn again only when what it shows changed: a redraw costs the page
// a layout, at every move of every player.
//
// With the switch golf.checkRedraw on in storage (the browser tests turn
// it on), a part whose inputs did not change is drawn again all the same,
// and if that changes what covers (the elements the draw writes) hold,
// the inputs missed something the part shows: checkRedraws, at the end of
// render, records it in window.__redrawErrors.
export function stale(el, inputs, covers = [el]) {
  const key = JSON.stringify(inputs);
  if (el.firstChild && state.drawn.get(el) === key) {
    if (!state.checking) return false;
    state.checks.push({ el, covers, before: covers.map((c) => c.outerHTML) });
  }
  state.drawn.set(el, key);
  return true;
}

// checkRedraws compares the parts drawn again from unchanged inputs
// (stale) with what they held before.
export function checkRedraws() {
  if (!state.checking) return;
  window.__redrawChecks = (window.__redrawChecks || 0) + state.checks.length;
  for (const { el, covers, before } of state.checks) {
    covers.forEach((c, i) => {
      if (c.outerHTML === before[i]) return;
      const a = before[i], b = c.outerHTML;
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      (window.__redrawErrors ||= []).push(`#${el.id} at v${state.lastV}: drawn again from the same inputs, #${c.id} changed at ${at}: ` +
        `${JSON.stringify(a.slice(Math.max(0, at - 60), at + 60))} -> ${JSON.stringify(b.slice(Math.max(0, at - 60), at + 60))}`);
    });
  }
  state.checks = [];
}
