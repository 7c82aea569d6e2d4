// Tournament pages: the list of tournaments with the create form, and one
// tournament's page (entry, your next hole, the live leaderboard or
// bracket, watching a player, final results with the revealed seeds). The
// page renders what the server pushes over /ws/tournament; it never
// computes standings itself.
import { t, num } from './i18n.js';
import { api, APIError, errorText, saveSeat, loadName, saveName } from './api.js';
import { $, h, say } from './dom.js';
import { openSocket } from './socket.js';
import { replayPlayer } from './replay.js';
import { foundationGame } from './board.js';
import { store } from './store.js';
import { heldTag } from './held.js';
import { matchText, knockoutResult } from './words.js';

// What the browser keeps of a tournament: its entry and host tokens.
const entry = {
  load: (id) => store.getJSON('golf.tour.' + id, {}),
  save: (id, v) => store.setJSON('golf.tour.' + id, { ...entry.load(id), ...v }),
};

function tourError(e) {
  if (e.code === 'entry_closed') return t('tour.err.entry_closed');
  if (e.code === 'name_taken') return t('tour.err.name_taken');
  if (e.code === 'already_entered') return t('tour.err.already');
  return errorText(e);
}


function fmtTime(s) {
  const d = new Date(s);
  return new Intl.DateTimeFormat(document.documentElement.lang || 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

function rulesText(s) {
  return t('tour.rules', { game: t('game.' + s.game), holes: num(s.holes), format: t('tour.format.' + s.format) });
}

// ---- the list ----

async function listPage() {
  const form = $('#tour-form');
  form.elements.host.value = loadName();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = form.elements;
    const settings = { name: f.name.value.trim(), game: f.game.value, holes: Number(f.holes.value), format: f.format.value,
      invite: f.invite.checked, limit: Number(f.limit.value || 0), countback: f.countback.checked,
      winnableOnly: f.winnableOnly.checked, difficulty: Number(f.difficulty.value) || 0 };
    if (settings.format === 'knockout' && f.qualifying.checked) settings.qualifying = true;
    if (f.kings.value) settings.options = { kings: f.kings.value };
    if (f.starts.value) settings.starts = new Date(f.starts.value).toISOString();
    if (f.closes.value) settings.closes = new Date(f.closes.value).toISOString();
    const host = f.host.value.trim();
    if (host) saveName(host);
    try {
      const g = await api('/api/tournaments', { method: 'POST', body: { settings, name: host || undefined } });
      entry.save(g.id, { token: g.token, hostToken: g.hostToken, invite: g.invite, entrant: g.entrant });
      location.assign('/t/' + g.id);
    } catch (e) {
      $('#tour-error').textContent = tourError(e);
    }
  });
  const refresh = async () => {
    let list;
    try { list = (await api('/api/tournaments')).tournaments; } catch { return; }
    for (const st of ['live', 'upcoming', 'closed']) {
      const ul = $('#list-' + st);
      const items = list.filter((x) => x.status === st);
      // Upcoming: soonest start first (those the host starts last).
      if (st === 'upcoming') items.sort((a, b) => (a.settings.starts ? Date.parse(a.settings.starts) : Infinity) - (b.settings.starts ? Date.parse(b.settings.starts) : Infinity));
      ul.replaceChildren(...(items.length ? items.map((x) => h('li', { 'data-testid': 'tour-item' },
        h('a', { href: '/t/' + x.id }, x.name),
        ' · ' + rulesText(x.settings) + ' · ' + t('tour.entrants', { n: num(x.entrants) }),
        ...(st === 'upcoming' && x.settings.starts ? [' · ', h('time', { datetime: x.settings.starts, 'data-testid': 'tour-starts' }, t('tour.startsAt', { time: fmtTime(x.settings.starts) }))] : []),
      )) : [h('li', { class: 'note' }, t('tour.listEmpty'))]));
    }
  };
  refresh();
  setInterval(refresh, 5000);
}

// ---- one tournament ----

function tournamentPage(root) {
  const id = root.dataset.id;
  let mine = entry.load(id);
  let view = null;
  let page = 1;
  let watching = -1;
  let watchTimer = null;
  let countdown = null;
  let lastBracket = 0;

  const headers = () => (mine.token ? { 'X-Token': mine.token } : {});
  async function call(path, opts = {}) {
    const res = await fetch(path, { method: opts.method || 'GET', headers: { ...headers(), ...(opts.body ? { 'Content-Type': 'application/json' } : {}) },
      body: opts.body ? JSON.stringify(opts.body) : undefined });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new APIError(res.status, data?.code || 'http', data?.message || res.statusText);
    return data;
  }
  const fail = (e) => { $('#t-error').textContent = tourError(e); };

  let socket = null;
  function connect() {
    socket = openSocket({
      path: () => '/ws/tournament?' + new URLSearchParams({ id, page: String(page), size: '20' }),
      // The token goes in the first message, never in the URL.
      hello: () => ({ type: 'hello', token: mine.token || mine.hostToken || '' }),
      onMessage: (m) => {
        if (m.type === 'pong') return;
        if (m.type === 'error') { $('#t-status').textContent = m.message; root.dataset.status = 'gone'; socket.stop(); return; }
        render(m);
      },
    });
  }
  function reconnect() { socket.reconnect(); }

  function render(m) {
    view = m.view;
    const v = view;
    root.dataset.status = v.status;
    root.dataset.v = String(m.v);
    $('#t-name').textContent = v.settings.name;
    document.title = v.settings.name;
    $('#t-status').textContent = t('tour.status.' + v.status);
    $('#t-entrants').textContent = t('tour.entrants', { n: num(v.entrants) });
    let rules = rulesText(v.settings);
    if (v.settings.closes) rules += ' · ' + t('tour.closesAt', { time: fmtTime(v.settings.closes) });
    $('#t-rules').textContent = rules;
    renderCountdown(v);
    $('#t-commitments').replaceChildren(...v.commitments.slice(0, v.settings.format === 'knockout' && v.bracket ? v.bracket.rounds.length : v.commitments.length)
      .map((c, i) => h('li', {}, t('tour.commitmentOf', { n: i + 1, hash: c }))));
    const entered = v.you && v.you.entrant >= 0;
    $('#t-join').hidden = v.status !== 'upcoming' || entered;
    $('#t-invite-field').hidden = !v.settings.invite;
    renderYou(v);
    $('#t-host').hidden = !mine.hostToken || v.status === 'closed';
    $('#t-start').hidden = v.status !== 'upcoming';
    $('#t-invite').textContent = mine.invite ? t('tour.inviteIs', { code: mine.invite }) : '';
    // The best possible score of each safe hole (never of one still in play).
    const best = v.best || [];
    $('#t-best').hidden = !best.length;
    $('#t-best').textContent = best.map((b) => t('end.bestHole', { h: num(b.hole), best: num(b.best) + (b.exact ? '' : '≥') })).join(' · ');
    if (v.settings.format === 'stroke' || v.phase === 'qualifying') renderBoard(m.board);
    else renderBracket(v);
    if (v.phase === 'qualifying') $('#t-status').textContent += ' · ' + t('tour.phase.qualifying');
    if (v.status === 'closed') renderFinal(v);
  }

  function renderCountdown(v) {
    const c = $('#t-countdown');
    if (countdown) { clearInterval(countdown); countdown = null; }
    if (v.status !== 'upcoming') { c.hidden = true; return; }
    c.hidden = false;
    if (!v.settings.starts) { c.textContent = t('tour.startsByHost'); return; }
    const tick = () => {
      const s = Math.max(0, Math.round((new Date(v.settings.starts) - Date.now()) / 1000));
      const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((x) => String(x).padStart(2, '0')).join(':');
      c.textContent = t('tour.startsIn', { time: hms });
    };
    tick();
    countdown = setInterval(tick, 1000);
  }

  function renderYou(v) {
    const you = v.you && v.you.entrant >= 0 ? v.you : null;
    $('#t-you').hidden = !you;
    if (!you) return;
    const r = you.row;
    $('#t-you-row').textContent = r.thru > 0 ? t('tour.youRow', { name: you.name, place: r.placeText || '', toPar: r.toParText, thru: r.thru }) : t('tour.youOff', { name: you.name });
    const play = $('#t-play');
    play.hidden = true;
    if (v.status !== 'live') return;
    if (v.settings.format === 'stroke' || v.phase === 'qualifying') {
      if (you.next > 0) { play.hidden = false; play.textContent = t('tour.play', { n: you.next }); }
      else $('#t-you-row').textContent += ' · ' + t('tour.finished');
    } else if (you.out) {
      $('#t-you-row').textContent = t('tour.out');
    } else if (you.room) {
      play.hidden = false; play.textContent = t('tour.playMatch');
    } else {
      $('#t-you-row').textContent = t('tour.waitMatch');
    }
  }

  function rowItem(r, tag) {
    const tr = h(tag, { 'data-testid': 'lb-row', 'data-entrant': r.entrant });
    // An entrant who has finished no hole: no place, no score (docs:
    // a leaderboard row's notStarted).
    const cells = r.notStarted ? ['–', r.name, t('tour.notStarted'), '0', r.today] : [r.placeText, r.name, r.toParText, String(r.thru), r.today];
    if (r.notStarted) tr.classList.add('not-started');
    if (tag === 'tr') {
      cells.forEach((c, i) => tr.append(h('td', {}, c, i === 1 && r.held ? [' ', heldTag(r, 'lb-held')] : null)));
      tr.append(h('td', {}, h('button', { type: 'button', class: 'small', onclick: () => watch(r.entrant, r.name) }, t('tour.watchBtn'))));
      if (view?.you?.entrant === r.entrant) tr.classList.add('you');
    } else {
      tr.textContent = r.notStarted ? `${r.name} (${t('tour.notStarted')})` : `${r.placeText}. ${r.name} ${r.toParText} (${t('tour.thru')} ${r.thru})`;
      if (r.held) tr.append(' ', heldTag(r, 'lb-held'));
    }
    return tr;
  }

  function renderBoard(b) {
    $('#t-board').hidden = false;
    $('#t-bracket').hidden = true;
    if (!b) return;
    $('#t-rows').replaceChildren(...b.rows.map((r) => rowItem(r, 'tr')));
    const pages = Math.max(1, Math.ceil(b.total / b.size));
    $('#t-page').textContent = t('tour.pageOf', { n: b.page, m: pages });
    $('#t-prev').disabled = b.page <= 1;
    $('#t-next').disabled = b.page >= pages;
    const around = b.around || [];
    $('#t-around').hidden = $('#t-around-h').hidden = around.length === 0 || b.page === 1 && around.every((r) => b.rows.some((x) => x.entrant === r.entrant));
    $('#t-around').replaceChildren(...around.map((r) => rowItem(r, 'li')));
  }

  async function renderBracket(v) {
    $('#t-board').hidden = true;
    $('#t-bracket').hidden = !v.bracket;
    if (!v.bracket) return;
    const now = Date.now();
    let live = null;
    if (now - lastBracket > 2000) {
      lastBracket = now;
      try { live = (await call(`/api/tournaments/${id}/bracket`)).bracket; } catch { /* the pushed one will do */ }
    }
    const br = live || v.bracket;
    const n = br.rounds.length;
    $('#t-rounds').replaceChildren(...br.rounds.map((round, i) => h('section', { class: 'round' },
      h('h3', {}, i === n - 1 ? t('tour.final.round') : t('tour.round', { n: i + 1 })),
      h('ul', {}, ...round.map((m) => h('li', { 'data-testid': 'match' },
        `${m.a || t('tour.tbd')} – ${m.b || (i === 0 ? t('tour.bye') : t('tour.tbd'))}` +
        (m.decided ? ` · ${m.winner} (${knockoutResult(m.result)})` : m.live ? ` · ${liveText(m)}` : m.status ? ` · ${m.status}` : '')))),
    )));
  }

  // liveText is a live match's standing in the page's language (the
  // server's status is English).
  function liveText(m) {
    return matchText({ match: m.live, rows: [{ seat: 0, name: m.a }, { seat: 1, name: m.b }] });
  }

  function renderFinal(v) {
    $('#t-final').hidden = false;
    $('#t-champion').textContent = v.champion ? t('tour.champion', { name: v.champion }) : '';
    $('#t-seeds').replaceChildren(...(v.seeds || []).slice(0, v.bracket ? v.bracket.rounds.length : 1).map((s, i) => h('li', {}, t('tour.seedOf', { n: i + 1, seed: s }))));
    $('#t-records').href = `/api/tournaments/${id}/records`;
  }

  async function watch(n, name) {
    watching = n;
    shownSafe = '';
    player.close();
    $('#t-watch').hidden = false;
    $('#t-watch-name').textContent = name;
    if (watchTimer) clearInterval(watchTimer);
    const poll = async () => {
      try {
        const w = await call(`/api/tournaments/${id}/entrants/${n}`);
        const r = w.row;
        $('#t-watch-text').textContent = w.progress?.wait
          ? t('tour.watchHole', { hole: w.hole }) + ' ' + t('wait.tournament')
          : w.progress
          ? t('tour.watchProgress', { hole: w.hole, cards: w.progress.cardsLeft, stock: w.progress.stockLeft, moves: w.progress.moves })
          : t('tour.watchIdle', { place: r.placeText || '–', toPar: r.toParText, thru: r.thru });
        renderWatchHoles(n, name);
      } catch { /* keep the last */ }
    };
    poll();
    watchTimer = setInterval(poll, 2000);
    say(t('tour.watching') + ' ' + name);
    renderWatchHoles(n, name);
  }

  // The watched entrant's safe holes (everyone still to play them has
  // finished, or the tournament has closed) can be replayed board by board
  // in the site's replay player; the server refuses any other.
  const player = replayPlayer('t-replay');
  let shownSafe = '';
  function renderWatchHoles(n, name) {
    const safe = view && view.settings.format !== 'knockout' ? (view.safe || []) : [];
    const key = JSON.stringify([n, safe]);
    if (key === shownSafe) return;
    shownSafe = key;
    $('#t-watch-replay').replaceChildren(...safe.map((hole) => h('button', {
      type: 'button', class: 'small', 'data-hole': hole, onclick: () => loadWatchReplay(n, name, hole),
    }, `${t('end.replay')} ${num(hole)}`)));
  }

  async function loadWatchReplay(n, name, hole) {
    try {
      const data = await call(`/api/tournaments/${id}/entrants/${n}/holes/${hole}/replay`);
      const game = view?.settings?.game;
      player.show(data, { who: t('replay.who', { who: name, h: num(hole), score: num(data.score ?? 0) }), foundation: foundationGame({ game }) });
    } catch (e) { fail(e); }
  }

  $('#t-join-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const name = $('#t-join-name').value.trim();
    if (!name) return;
    saveName(name);
    try {
      const g = await call(`/api/tournaments/${id}/join`, { method: 'POST', body: { name, invite: $('#t-join-invite').value.trim() || undefined } });
      entry.save(id, { token: g.token, entrant: g.entrant });
      mine = entry.load(id);
      $('#t-error').textContent = '';
      reconnect();
    } catch (e) { fail(e); }
  });
  $('#t-join-name').value = loadName();
  $('#t-play').addEventListener('click', async () => {
    try {
      const g = await call(`/api/tournaments/${id}/play`, { method: 'POST', body: { token: mine.token } });
      saveSeat({ code: g.room, token: mine.token, seat: g.seat || 0 });
      location.assign('/r/' + g.room);
    } catch (e) { fail(e); }
  });
  for (const [btn, kind] of [['#t-start', 'start'], ['#t-close', 'close']]) {
    $(btn).addEventListener('click', async () => {
      try { await call(`/api/tournaments/${id}/${kind}`, { method: 'POST', body: { token: mine.hostToken } }); } catch (e) { fail(e); }
    });
  }
  $('#t-prev').addEventListener('click', () => { page = Math.max(1, page - 1); reconnect(); });
  $('#t-next').addEventListener('click', () => { page += 1; reconnect(); });
  connect();
}

const root = document.getElementById('tournament');
if (root) tournamentPage(root);
else if (document.getElementById('tournaments')) listPage();
