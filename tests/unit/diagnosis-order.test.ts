import { describe, expect, it } from 'vitest';
import { orderFindings } from '../../mcp-server/src/core/diagnosis/chain.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';

const f = (id: string, severity: Finding['severity'], sources?: string[]): Finding => ({
  id,
  severity,
  title: id,
  evidence: [],
  recommendation: '',
  knowledgeIds: [],
  confidence: 'high',
  ...(sources ? { sources } : {}),
});

describe('finding order at equal severity', () => {
  it('a measurement of now leads a log line; a log finding confirmed by another source does not drop', () => {
    const order = orderFindings([
      f('log.time-to-safepoint', 'warning'),
      f('table.tombstones', 'warning'),
      f('log.tombstones', 'warning', ['log', 'system_views']),
      f('log.oom', 'critical'),
    ]);
    expect(order.map((x) => x.id)).toEqual(['log.oom', 'log.tombstones', 'table.tombstones', 'log.time-to-safepoint']);
  });
});
