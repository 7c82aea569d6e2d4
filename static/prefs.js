// What every page shares: four-colour suits, and the navigation showing
// the account logged in as (its name, linking to its profile, and "Log
// out") instead of "Log in".
import { store } from './store.js';
import { api } from './api.js';
import { t } from './i18n.js';

const box = document.getElementById('four-colour');
const key = 'golf.fourColour';
function apply(on) { document.body.classList.toggle('four', on); if (box) box.checked = on; }
apply(store.flag(key));
box?.addEventListener('change', () => {
  apply(box.checked);
  store.setFlag(key, box.checked);
});

const login = document.querySelector('[data-testid=nav-login]');
const account = document.querySelector('[data-testid=nav-account]');
const logout = document.querySelector('[data-testid=nav-logout]');

// me is the account logged in as ({name}), or null for a guest: from
// GET /api/session, which answers a guest 200 (GET /api/account's 401
// would show as an error in the console of every page).
export const me = api('/api/session').then((s) => (s?.name ? { name: s.name } : null)).catch(() => null);
me.then((a) => {
  if (!a?.name || !login) return;
  login.hidden = true;
  account.hidden = false;
  account.href = '/@/' + encodeURIComponent(a.name);
  account.textContent = a.name;
  account.setAttribute('aria-label', t('nav.account', { name: a.name }));
  logout.hidden = false;
});
logout?.addEventListener('click', async () => {
  await api('/api/account/logout', { method: 'POST' }).catch(() => {});
  location.assign('/');
});
