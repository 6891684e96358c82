/**
 * The hints of one node, as `nodetool listpendinghints` lists them, judged by the same rule as the
 * system_views.pending_hints rows of a sweep: a target hinted for longer than max_hint_window needs a repair; a DOWN
 * target with hints waits; an UP one is a replay backlog. nodetool prints no clock, so the span is newest − oldest.
 */
import { PASTED_NODE, type NodeEvidence } from '../../diagnosis/evidence.js';
import { hintFindings } from '../../rules/repair.js';
import type { KindRule } from '../types.js';
import type { PendingHints } from './parse.js';

export const hintsPerTarget: KindRule<PendingHints> = {
  id: 'hints.per-target',
  checks: 'pending hints per target node vs max_hint_window (default, as nodetool shows no settings)',
  run(v) {
    // "This node does not have any pending hints": checked, nothing to do
    if (v.none) return [];
    const node: NodeEvidence = {
      node: PASTED_NODE,
      reachable: true,
      facts: {
        pendingHints: v.rows.map((r) => ({
          hostId: r.hostId,
          address: r.address,
          files: r.files,
          totalBytes: null,
          status: r.status.toUpperCase(),
          oldest: r.oldest,
          newest: r.newest,
        })),
      },
      nodetool: {},
      errors: [],
    };
    return hintFindings([node], null, 'nodetool listpendinghints').map((f) => ({
      ...f,
      // evidence lines name the holder; pasted output has none
      evidence: f.evidence.map((e) => e.replace(/^input: /, 'this node: ')),
    }));
  },
};
