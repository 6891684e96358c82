import { describe, expect, it } from 'vitest';
import { chainFindings, orderFindings } from '../../mcp-server/src/core/diagnosis/chain.js';
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

describe('a since-start counter is history too', () => {
  it('the worst GC pause since a JVM started under load follows a setting that holds now (the config-mistake incident on a busy host)', () => {
    const pause = { ...f('jvm.gc.pause', 'warning'), node: '127.0.0.1', when: 'since start, 3 min ago' };
    const stage = { ...f('threadpool.stage-threads-low', 'warning'), node: '127.0.0.1', when: 'now' };
    expect(orderFindings([pause, stage]).map((x) => x.id)).toEqual(['threadpool.stage-threads-low', 'jvm.gc.pause']);
    // Measured now or over a window, the pause keeps its place by id.
    expect(orderFindings([{ ...pause, when: 'window' }, stage]).map((x) => x.id)).toEqual(['jvm.gc.pause', 'threadpool.stage-threads-low']);
  });
});

describe('causes lead symptoms across nodes', () => {
  it("a CPU quota on one node leads another node's dropped-message chain that sorts first by id (the slow-node re-run)", () => {
    const chain = (x: Finding, effect: Finding): Finding => ({ ...x, chain: { reason: 'same node', effects: [effect] } });
    const drops = chain(
      { ...f('dropped.messages', 'critical'), node: '127.0.0.2', when: 'window' },
      { ...f('log.threadpool-pending', 'warning'), node: '127.0.0.2' },
    );
    const quota = chain({ ...f('host.cpu-throttle', 'critical'), node: '127.0.0.3', when: 'window' }, { ...f('log.dropped', 'warning'), node: '127.0.0.3' });
    expect(orderFindings([drops, quota]).map((x) => x.id)).toEqual(['host.cpu-throttle', 'dropped.messages']);
    // Any finding of equal standing leads a symptom, whatever their ids (dropped messages sort first by id).
    const tomb = { ...f('table.tombstones-per-read', 'critical'), when: 'now' };
    expect(orderFindings([tomb, { ...drops, chain: undefined }]).map((x) => x.id)).toEqual(['table.tombstones-per-read', 'dropped.messages']);
  });
});

describe('GC pressure explains the longest pause of the same gcstats reading', () => {
  it('jvm.gc.time-share leads with the pause in its chain, on its node only', () => {
    const share = { ...f('jvm.gc.time-share', 'warning'), node: 'n1', title: 'n1 spent 12 % of 50 s in GC' };
    const pause = { ...f('jvm.gc.pause', 'warning'), node: 'n1', title: 'GC pause 900 ms on n1' };
    const other = { ...f('jvm.gc.pause', 'warning'), node: 'n2', title: 'GC pause 800 ms on n2' };
    const out = chainFindings([pause, other, share]);
    expect(out).toHaveLength(2);
    const head = out.find((x) => x.id === 'jvm.gc.time-share')!;
    expect(head.chain?.effects.map((e) => e.title)).toEqual(['GC pause 900 ms on n1']);
    expect(head.chain?.reason).toMatch(/gcstats interval/);
    expect(out.find((x) => x.node === 'n2')).toBe(other);
    // An info-level share explains nothing.
    expect(chainFindings([pause, { ...share, severity: 'info' }])).toHaveLength(2);
  });
});
