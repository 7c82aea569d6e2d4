// The server's JSON API and what the browser keeps: seat tokens per room
// (so a reload restores the seat) and the player's name.
import { t } from './i18n.js';
import { store } from './store.js';
import { normalizeCode } from './code.js';

export class APIError extends Error {
  constructor(status, code, message, data) { super(message || code); this.status = status; this.code = code; this.data = data; }
}

// api calls the JSON API; it resolves to the body (null for 204).
export async function api(path, { method = 'GET', body, signal } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method, signal, headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new APIError(0, 'network', t('err.network'));
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new APIError(res.status, data?.code || 'http', data?.message || res.statusText, data);
  return data;
}

// errorText turns an API error into a sentence for the player.
export function errorText(e) {
  if (e.code === 'room_full') return t('err.room_full');
  if (e.code === 'room_not_found') return t('err.room_not_found');
  if (e.code === 'invalid') return t('err.invalid', { msg: e.message });
  if (e.code === 'network') return t('err.network');
  return t('err.generic', { msg: e.message });
}

export { normalizeCode };

const seatKey = (code) => 'golf.seat.' + normalizeCode(code);
export function saveSeat(grant) { store.setJSON(seatKey(grant.code), { token: grant.token, seat: grant.seat }); }
export function loadSeat(code) { return store.getJSON(seatKey(code)); }
export function dropSeat(code) { store.remove(seatKey(code)); }
export function loadName() { return store.get('golf.name', ''); }
export function saveName(n) { store.set('golf.name', n); }
