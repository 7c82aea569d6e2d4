// Interface strings: the server renders the page's catalogue as JSON
// (<script id="i18n">); numbers and dates go through Intl.
const catalog = JSON.parse(document.getElementById('i18n')?.textContent || '{}');
export const lang = document.documentElement.lang || 'en';

// t translates key, replacing {name} placeholders from params.
export function t(key, params = {}) {
  let s = catalog[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.replaceAll('{' + k + '}', String(v));
  return s;
}

const numFmt = new Intl.NumberFormat(lang);
export const num = (n) => numFmt.format(n);
export const signed = (n) => (n > 0 ? '+' + num(n) : n < 0 ? '−' + num(-n) : 'E');
export const time = (d) => new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(d);

const rankChars = 'A23456789TJQK';
// cardName is what a screen reader says for a card: "queen of spades".
export function cardName(code) {
  if (!code) return t('play.empty');
  if (code === '??') return t('play.hidden');
  if (code === 'JK') return t('card.JK');
  if (code.length !== 2 || !rankChars.includes(code[0]) || !'CDHS'.includes(code[1])) return code;
  return t('card.of', { rank: t('card.' + code[0]), suit: t('card.' + code[1]) });
}
