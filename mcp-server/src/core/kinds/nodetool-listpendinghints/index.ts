/** `nodetool listpendinghints` (4.1+): hints this node holds per target, against max_hint_window. */
import { defineKind } from '../types.js';
import { LIST_PENDING_HINTS_KIND, listPendingHintsSignature, parseListPendingHints } from './parse.js';
import { hintsPerTarget } from './rules.js';

export const nodetoolListPendingHints = defineKind({
  kind: LIST_PENDING_HINTS_KIND,
  title: 'nodetool listpendinghints',
  signature: listPendingHintsSignature,
  parse: parseListPendingHints,
  // its header and sentence are unlike any other output's
  order: 'before-logs',
  rules: [hintsPerTarget],
  knowledgeIds: ['hints.pending-per-target', 'hints.max-window.default', 'hints.down-longer-than-window', 'hints.window-persistent'],
  fixtures: 'nodetool-listpendinghints',
});
