// normalizeCode turns what a person typed into the canonical room code,
// exactly as the server does (server/codes.go): upper case, O read as 0,
// I and L as 1, dashes, spaces and underscores ignored, then nine
// characters of Crockford's base32 grouped by three ("K7R-4MP-9TW"). It
// returns '' when the text cannot be a code. The table in
// testdata/roomcodes.json is checked against both.
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function normalizeCode(s) {
  let raw = '';
  // Upper case one character at a time, as Go's strings.ToUpper does: a
  // character whose upper case is two ('ß', 'ﬆ') is not a code's.
  for (const ch of String(s)) {
    let c = ch.toUpperCase();
    if (c === '-' || c === ' ' || c === '_') continue;
    if (c === 'O') c = '0';
    else if (c === 'I' || c === 'L') c = '1';
    if (c.length !== 1 || !alphabet.includes(c)) return '';
    raw += c;
  }
  return raw.length === 9 ? raw.slice(0, 3) + '-' + raw.slice(3, 6) + '-' + raw.slice(6) : '';
}
