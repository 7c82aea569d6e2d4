// The how-to-play page: its diagrams are drawn by the room page's own
// renderers (board.js, scorecard.js) from the examples in the page's
// howto-data block, so the rules show exactly what a game looks like.
import './prefs.js';
import { $, h } from './dom.js';
import { t } from './i18n.js';
import { renderBoard, cardFace } from './board.js';
import { scorecard } from './scorecard.js';

const data = JSON.parse($('#howto-data')?.textContent || '{}');
if (data.board) $('#howto-board').replaceChildren(renderBoard(data.board, { label: t('play.board') }));
$('#howto-kings').replaceChildren(...(data.kings || []).map((d) => h('li', {},
  h('span', { class: 'fan' }, d.cards.map(cardFace)), h('span', {}, t(d.key)))));
if (data.standings) $('#howto-scorecard').replaceChildren(scorecard({ standings: data.standings }));
