// Sentences built from the server's views, in the page's language: lists
// of names, the result of a round. Pure functions, so the browser tests
// can check them on made-up standings.
import { t, num, lang } from './i18n.js';

// listText joins names the way the language does: "Ana and Bo".
export function listText(names) {
  try { return new Intl.ListFormat(lang, { type: 'conjunction' }).format(names); } catch { return names.join(', '); }
}

// resultText is the round's result: the match-play result, a solo score,
// "Ana wins (−2)" or "Ana and Bo tie (E)".
export function resultText(vw) {
  const st = vw?.standings;
  if (!st) return '';
  if (st.match) return matchText(st);
  if (vw.settings.seats === 1 && st.rows[0]) return t('end.solo', { score: num(st.rows[0].total), toPar: st.rows[0].toParText });
  const winners = st.rows.filter((r) => r.place === 1).map((r) => r.name);
  const par = st.rows[0] ? ` (${st.rows[0].toParText})` : '';
  if (winners.length > 1) return t('end.tie', { who: listText(winners) }) + par;
  return t('end.winner', { who: winners[0] || '?' }) + par;
}

// matchText is a match-play state in words, from the standings' match
// fields (the server's match.text is English): "Ana 2 UP thru 7",
// "All square", "Ana wins 3 & 2", "Halved".
export function matchText(st) {
  const m = st?.match;
  if (!m) return '';
  const name = (seat) => st.rows.find((r) => r.seat === seat)?.name ?? '?';
  if (m.decided && m.winner >= 0) {
    const result = m.holesLeft > 0 ? t('match.resultAnd', { up: num(m.up), left: num(m.holesLeft) }) : t('match.resultUp', { up: num(m.up) });
    return t(m.extra > 0 ? 'match.winsExtra' : 'match.wins', { who: name(m.winner), result, n: num(m.thru) });
  }
  if (m.decided) return t('match.halved');
  if (m.holesLeft === 0 && m.thru > 0) return t('match.suddenDeath', { n: num(m.thru) });
  const text = m.thru === 0 ? t('match.square') : m.up === 0 ? t('match.squareThru', { n: num(m.thru) }) : t('match.up', { who: name(m.leader), up: num(m.up), n: num(m.thru) });
  return m.dormie ? t('match.dormie', { text }) : text;
}

// knockoutResult is a decided knockout match's result in words: the
// bracket's result field is the server's fixed form ("3 & 2", "1 UP",
// "bye"), worded here in the page's language.
export function knockoutResult(result) {
  let m;
  if ((m = /^(\d+) & (\d+)$/.exec(result || ''))) return t('match.resultAnd', { up: num(Number(m[1])), left: num(Number(m[2])) });
  if ((m = /^(\d+) UP$/.exec(result || ''))) return t('match.resultUp', { up: num(Number(m[1])) });
  if (result === 'bye') return t('tour.bye');
  return result || '';
}
