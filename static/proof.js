// The proof of work a login needs past a name's budget of failed logins
// (docs/protocol.md "Logins"): the nonce, a decimal number, such that
// SHA-256(challenge + ":" + nonce) starts with `bits` zero bits. It needs
// WebCrypto (https, or this machine).

function zeroBits(buf) {
  let n = 0;
  for (const b of new Uint8Array(buf)) {
    if (b !== 0) return n + Math.clz32(b) - 24;
    n += 8;
  }
  return n;
}

// solveProof resolves to the nonce answering {challenge, bits}.
export async function solveProof({ challenge, bits }) {
  const enc = new TextEncoder();
  const batch = 256;
  for (let base = 0; ; base += batch) {
    const tries = [];
    for (let i = base; i < base + batch; i++) {
      tries.push(crypto.subtle.digest('SHA-256', enc.encode(challenge + ':' + i)).then((h) => (zeroBits(h) >= bits ? i : -1)));
    }
    const found = (await Promise.all(tries)).find((i) => i >= 0);
    if (found !== undefined) return String(found);
  }
}
