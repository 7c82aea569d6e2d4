// View patches (docs/protocol.md "View patches"): a live event carries a
// patch of the view the socket was sent last, not the whole view. apply
// is the Go package protocol/patch's Apply on parsed values: it never
// changes old (the parts it does not touch are shared with the result)
// and throws when the patch does not fit old, so the page asks for a
// snapshot.

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

// apply returns what patch p makes of old (undefined: no old value).
export function apply(old, p) {
  if (p === null) throw new Error('patch: null only removes a member');
  if (Array.isArray(p)) {
    if (p.length !== 1) throw new Error('patch: a replacement holds exactly one value');
    return p[0];
  }
  if (!isObject(p)) return p; // a string, number or boolean
  if (Array.isArray(old)) return applyArray(old, p);
  if (!isObject(old)) throw new Error('patch: an edit of a value that is not an object or array');
  const out = { ...old };
  for (const [k, v] of Object.entries(p)) {
    if (v === null) {
      if (!Object.hasOwn(out, k)) throw new Error(`patch: removes ${k}, which is not there`);
      delete out[k];
    } else if (Object.hasOwn(out, k)) {
      out[k] = apply(out[k], v);
    } else {
      if (isObject(v)) throw new Error(`patch: edits ${k}, which is not there`);
      out[k] = apply(undefined, v);
    }
  }
  return out;
}

const index = /^(0|[1-9][0-9]{0,8})$/;

function applyArray(old, p) {
  let out = old;
  if ('-' in p) {
    const n = p['-'];
    if (!Number.isInteger(n) || n < 0 || n > old.length) throw new Error('patch: bad "-"');
    out = old.slice(0, old.length - n);
  }
  let copied = out !== old;
  for (const [k, v] of Object.entries(p)) {
    if (k === '-' || k === '+') continue;
    if (!index.test(k)) throw new Error(`patch: an array edit has no member ${k}`);
    const i = Number(k);
    if (i >= out.length) throw new Error(`patch: index ${i} of an array of ${out.length}`);
    if (!copied) { out = old.slice(); copied = true; }
    out[i] = apply(out[i], v);
  }
  if ('+' in p) {
    if (!Array.isArray(p['+'])) throw new Error('patch: "+" must be an array');
    out = out.concat(p['+']);
  }
  return out === old ? old.slice() : out;
}

// viewTracker keeps the view a socket was sent last, as the server sent
// it. take(m) returns the view a snapshot or event brings (null when it
// brings none); on a patch whose base is not the view held, or that does
// not apply, it calls resync() once and returns null until a whole view
// comes. reset() forgets the view (a new socket starts with a snapshot).
export function viewTracker(resync) {
  let view = null;
  let asked = false;
  return {
    take(m) {
      if (m.view) {
        view = m.view;
        asked = false;
        return view;
      }
      if (m.type !== 'event' || m.patch === undefined) return null;
      // A frame leaves base out when it is v-1.
      if (view && (m.base ?? m.v - 1) === view.v) {
        try {
          view = apply(view, m.patch);
          return view;
        } catch { /* resync below */ }
      }
      if (!asked) {
        asked = true;
        resync();
      }
      return null;
    },
    reset() { view = null; asked = false; },
  };
}
