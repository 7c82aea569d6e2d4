// The one storage wrapper: localStorage that never throws (storage may be
// off, full or blocked); every key the pages keep starts with "golf.".
export const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : v; } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(key, String(value)); } catch { /* storage may be off */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* storage may be off */ }
  },
  getJSON(key, fallback = null) {
    try { return JSON.parse(localStorage.getItem(key) ?? 'null') ?? fallback; } catch { return fallback; }
  },
  setJSON(key, value) { this.set(key, JSON.stringify(value)); },
  // flag reads a "1"/"0" switch; setFlag writes one.
  flag(key) { return this.get(key) === '1'; },
  setFlag(key, on) { this.set(key, on ? '1' : '0'); },
};
