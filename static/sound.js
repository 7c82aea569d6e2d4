// Sounds, synthesised with Web Audio (no audio files): off by default, the
// player's choice kept in localStorage. Nothing plays before the player
// turns sound on (a click, so browsers allow the audio context).
import { store } from './store.js';

const key = 'golf.sound';
let on = store.flag(key);
let ctx = null;

export function soundOn() { return on; }

export function setSound(v) {
  on = !!v;
  store.setFlag(key, on);
}

function audio() {
  if (!on) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  ctx ??= new AC();
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

// tone plays one short note: frequency f (Hz), from start s, for d seconds.
function tone(ac, f, s, d, type = 'triangle', gain = 0.15) {
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f, ac.currentTime + s);
  g.gain.setValueAtTime(0, ac.currentTime + s);
  g.gain.linearRampToValueAtTime(gain, ac.currentTime + s + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, ac.currentTime + s + d);
  o.connect(g).connect(ac.destination);
  o.start(ac.currentTime + s);
  o.stop(ac.currentTime + s + d + 0.02);
}

// snap is a card's soft slap: a burst of filtered noise.
function snap(ac, f) {
  const len = Math.floor(ac.sampleRate * 0.06);
  const buf = ac.createBuffer(1, len, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const bp = ac.createBiquadFilter();
  bp.type = 'bandpass';
  bp.frequency.value = f;
  const g = ac.createGain();
  g.gain.value = 0.5;
  src.connect(bp).connect(g).connect(ac.destination);
  src.start();
}

// sfx plays a named sound: 'play' (rising with the run), 'turn',
// 'holed', 'end'.
export function sfx(kind, run = 0) {
  const ac = audio();
  if (!ac) return;
  const scale = [523.25, 587.33, 659.25, 783.99, 880, 1046.5];
  switch (kind) {
    case 'play':
      snap(ac, 2400);
      tone(ac, scale[Math.min(Math.max(run - 1, 0), scale.length - 1)], 0, 0.12, 'sine', 0.08);
      break;
    case 'turn':
      snap(ac, 1200);
      break;
    case 'holed':
      [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(ac, f, i * 0.09, 0.35));
      break;
    case 'end':
      [392, 523.25, 659.25].forEach((f, i) => tone(ac, f, i * 0.14, 0.5, 'sine'));
      break;
  }
}
