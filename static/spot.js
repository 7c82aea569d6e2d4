// Where something shown over the play screen may go without lying over
// the player's cards: the hole's summary and the celebrations sit in the
// free felt or page beside, below or above the cards, so the hole in play
// stays in sight and every click on it plays.
import { $$ } from './dom.js';

const M = 8; // the margin kept from the cards and the viewport's edges

// union is the box around rects (null for none).
function union(rects) {
  const r = rects.filter((x) => x.width && x.height);
  if (!r.length) return null;
  return {
    left: Math.min(...r.map((x) => x.left)), top: Math.min(...r.map((x) => x.top)),
    right: Math.max(...r.map((x) => x.right)), bottom: Math.max(...r.map((x) => x.bottom)),
  };
}

// areas are the parts of the viewport free of the board's cards, best
// first: beside the columns (where the rail is), beside the stock and
// waste under the columns, below and above everything. Without a board
// (a spectator), the whole viewport's lower right.
function areas() {
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const rect = (sel) => union($$(sel).map((el) => el.getBoundingClientRect()));
  const tab = rect('#my-board .tableau .card, #my-board .tableau .slot');
  const pad = rect('#my-board .piles-pad');
  if (!tab && !pad) return [{ left: M, top: M, right: W - M, bottom: H - M }];
  const all = union([tab, pad].filter(Boolean).map((x) => ({ ...x, width: 1, height: 1 })));
  const t = tab || pad;
  const p = pad || tab;
  const out = [
    { left: all.right + M, top: M, right: W - M, bottom: H - M },
    { left: p.right + M, top: t.bottom + M, right: W - M, bottom: H - M },
    { left: M, top: all.bottom + M, right: W - M, bottom: H - M },
    { left: M, top: t.bottom + M, right: p.left - M, bottom: H - M },
    { left: M, top: M, right: all.left - M, bottom: H - M },
    { left: M, top: M, right: W - M, bottom: all.top - M },
  ];
  return out.filter((a) => a.right - a.left > 0 && a.bottom - a.top > 0);
}

// place puts el (position: fixed) in the first free area it fits whole,
// at most maxW wide; else in the free area with the most room, scrolling
// inside. With centre, it is centred in its area (a celebration);
// otherwise it keeps to the area's top (a card to read).
export function place(el, { minW = 200, maxW = 480, centre = false } = {}) {
  el.style.setProperty('position', 'fixed');
  el.style.setProperty('max-height', 'none');
  let best = null;
  for (const a of areas()) {
    const w = Math.min(maxW, a.right - a.left);
    if (w < minW) continue;
    el.style.setProperty('width', w + 'px');
    const h = el.scrollHeight;
    const fit = h <= a.bottom - a.top;
    const room = Math.min(h, a.bottom - a.top) * w;
    if (fit) { best = { a, w, h }; break; }
    if (!best || room > best.room) best = { a, w, h, room };
  }
  if (!best) { // nowhere free: the bottom of the viewport
    const W = document.documentElement.clientWidth;
    const H = window.innerHeight;
    const w = Math.min(maxW, W - 2 * M);
    best = { a: { left: (W - w) / 2, top: M, right: (W + w) / 2, bottom: H - M }, w, h: 0 };
    centre = false;
    el.style.setProperty('width', w + 'px');
    best.h = el.scrollHeight;
    best.a.top = Math.max(M, H - M - best.h);
  }
  const { a, w } = best;
  const h = Math.min(best.h, a.bottom - a.top);
  const left = a.left + (a.right - a.left - w) / 2;
  const top = centre ? a.top + (a.bottom - a.top - h) / 2 : a.top;
  el.style.setProperty('width', w + 'px');
  el.style.setProperty('left', Math.round(left) + 'px');
  el.style.setProperty('top', Math.round(top) + 'px');
  el.style.setProperty('max-height', Math.floor(a.bottom - a.top) + 'px');
}
