// The account pages: the sign-up and login forms send JSON to the API and
// go to the player's profile; a profile shows log out, delete, passkeys
// and the challenges received to its owner, and a challenge button to
// other logged-in players. Passkeys use WebAuthn (navigator.credentials)
// with the server's options (docs/protocol.md "Accounts").
import { me } from './prefs.js';
import { api, saveSeat } from './api.js';
import { t } from './i18n.js';
import { solveProof } from './proof.js';

function errorText(e) {
  if (['bad_login', 'name_taken', 'rate_limited', 'cross_origin'].includes(e.code)) return t('acct.err.' + e.code);
  return e.message || String(e);
}

const form = document.getElementById('account-form');
if (form) {
  const out = document.getElementById('account-error');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    out.textContent = '';
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const body = { name: form.elements.name.value, password: form.elements.password.value };
      let me;
      // Past the name's budget of failed logins the server asks for a
      // proof of work (proof.js): solve it and send the login again.
      for (let tries = 0; ; tries++) {
        try {
          me = await api(form.dataset.action, { method: 'POST', body });
          break;
        } catch (e) {
          if (e.code !== 'proof_required' || !e.data?.proof || tries >= 2 || !globalThis.crypto?.subtle) throw e;
          out.textContent = t('acct.checking');
          body.proof = { challenge: e.data.proof.challenge, nonce: await solveProof(e.data.proof) };
          out.textContent = '';
        }
      }
      location.assign('/@/' + encodeURIComponent(me.name));
    } catch (e) {
      out.textContent = errorText(e);
      button.disabled = false;
      form.elements.password.focus();
    }
  });
}

const profile = document.querySelector('[data-testid=profile]');
if (profile) {
  me.then((me) => {
    if (me && me.name === profile.dataset.name) document.getElementById('own-account').hidden = false;
  }).catch(() => { /* a guest */ });
  document.getElementById('logout')?.addEventListener('click', async () => {
    await api('/api/account/logout', { method: 'POST' }).catch(() => {});
    location.assign('/');
  });
  // A name kept from before the name rules: its owner chooses a new one
  // (POST /api/account/name) and goes to the new profile.
  const rename = document.getElementById('rename-form');
  rename?.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const out = document.getElementById('rename-error');
    out.textContent = '';
    try {
      const a = await api('/api/account/name', { method: 'POST', body: { name: rename.elements.name.value } });
      location.assign('/@/' + encodeURIComponent(a.name));
    } catch (e) {
      out.textContent = errorText(e);
      rename.elements.name.focus();
    }
  });
  const del = document.getElementById('delete-account');
  del?.addEventListener('click', async () => {
    if (!confirm(del.dataset.confirm)) return;
    await api('/api/account', { method: 'DELETE' });
    location.assign('/');
  });
}

// WebAuthn's binary fields travel as base64url without padding.
const fromB64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
const toB64 = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const passkeys = typeof PublicKeyCredential !== 'undefined' && !!navigator.credentials;

function credentialJSON(c) {
  const r = c.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) response.attestationObject = toB64(r.attestationObject);
  if (r.authenticatorData) response.authenticatorData = toB64(r.authenticatorData);
  if (r.signature) response.signature = toB64(r.signature);
  if (r.userHandle) response.userHandle = toB64(r.userHandle);
  if (r.getTransports) response.transports = r.getTransports();
  return { id: c.id, rawId: toB64(c.rawId), type: c.type, response };
}

const passkeyLogin = document.getElementById('passkey-login');
if (passkeyLogin && passkeys) {
  passkeyLogin.hidden = false;
  const out = document.getElementById('account-error');
  passkeyLogin.addEventListener('click', async () => {
    out.textContent = '';
    try {
      const opts = await api('/api/account/passkey-login/begin', { method: 'POST' });
      const pk = opts.publicKey;
      pk.challenge = fromB64(pk.challenge);
      for (const c of pk.allowCredentials || []) c.id = fromB64(c.id);
      const cred = await navigator.credentials.get({ publicKey: pk });
      const me = await api('/api/account/passkey-login/finish', { method: 'POST', body: credentialJSON(cred) });
      location.assign('/@/' + encodeURIComponent(me.name));
    } catch (e) {
      out.textContent = errorText(e);
    }
  });
}

if (profile) {
  me.then(async (me) => {
    if (!me) return;
    if (me.name !== profile.dataset.name) {
      document.getElementById('challenge-box').hidden = false;
      return;
    }
    const add = document.getElementById('add-passkey');
    if (add && passkeys) add.hidden = false;
    const list = await api('/api/account/challenges').catch(() => []);
    const ul = document.getElementById('challenges');
    for (const c of list) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = '/r/' + encodeURIComponent(c.code);
      a.textContent = t('acct.challengeAccept', { from: c.from, holes: c.holes, game: t('game.' + c.game) });
      li.append(a);
      ul.append(li);
    }
    document.getElementById('challenges-box').hidden = list.length === 0;
  }).catch(() => { /* a guest */ });

  document.getElementById('challenge')?.addEventListener('click', async (ev) => {
    const out = document.getElementById('challenge-error');
    out.textContent = '';
    ev.target.disabled = true;
    try {
      const grant = await api('/api/players/' + encodeURIComponent(ev.target.dataset.name) + '/challenge', { method: 'POST' });
      saveSeat(grant);
      location.assign('/r/' + encodeURIComponent(grant.code));
    } catch (e) {
      out.textContent = errorText(e);
      ev.target.disabled = false;
    }
  });

  document.getElementById('add-passkey')?.addEventListener('click', async (ev) => {
    const status = document.getElementById('passkey-status');
    status.textContent = '';
    try {
      const opts = await api('/api/account/passkeys/begin', { method: 'POST' });
      const pk = opts.publicKey;
      pk.challenge = fromB64(pk.challenge);
      pk.user.id = fromB64(pk.user.id);
      for (const c of pk.excludeCredentials || []) c.id = fromB64(c.id);
      const cred = await navigator.credentials.create({ publicKey: pk });
      await api('/api/account/passkeys/finish', { method: 'POST', body: credentialJSON(cred) });
      status.textContent = ev.target.dataset.done;
    } catch (e) {
      status.textContent = errorText(e);
    }
  });
}
