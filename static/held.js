// The held mark: a standings or leaderboard row whose results are held for
// fair-play review (rated rooms and tournaments only: docs/protocol.md
// "The held mark") gets a tag, read out with the name.
import { h } from './dom.js';
import { t } from './i18n.js';

export function heldTag(r, id) {
  return r.held ? h('span', { class: 'tag held', title: t('held.title'), 'data-testid': id }, t('held.tag')) : null;
}
