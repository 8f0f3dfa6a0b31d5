// Card sounds (optional, off until the person turns them on in the table's settings): a short
// snap when a card lands, a soft swish when a trick is gathered. Made with the Web Audio API
// (filtered noise), no sound files. Nothing plays under a browser that has no audio.

const KEY = "oh7.cardsound";
let ctx = null;

/** Whether this browser asked for card sounds. */
export function cardSoundsOn() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/** Turn card sounds on or off (call from a click, so the browser lets them play later). */
export function setCardSounds(on) {
  try {
    if (on) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode: on for this page only.
  }
  if (on) audio();
}

function audio() {
  try {
    ctx ||= new AudioContext();
    ctx.resume?.();
  } catch {
    ctx = null;
  }
  return ctx;
}

/** A burst of noise through a band-pass filter: `freq` its colour, `len` seconds. */
function noise(freq, len, gain) {
  const a = audio();
  if (!a) return;
  const n = Math.ceil(a.sampleRate * len);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 2;
  const src = a.createBufferSource();
  src.buffer = buf;
  const f = a.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = freq;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(a.destination);
  src.start();
}

/** A card lands on the table. */
export function snap() {
  if (cardSoundsOn()) noise(2400, 0.06, 0.5);
}

/** A trick is gathered. */
export function swish() {
  if (cardSoundsOn()) noise(900, 0.22, 0.25);
}
