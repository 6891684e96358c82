/**
 * The failure detector's first "local pause" after a node starts is the time it was alone, not a pause: it only
 * measures between checks of a peer it has heard from (FailureDetector.interpret returns before moving lastInterpret
 * while no peer has arrival samples), so the first check after start reports everything since start. Real system.log
 * of a 3-node Cassandra 4.1.10 lab starting on a 2-core host (tests/fixtures/lab-incident-outputs): node 1 reports
 * 12.2 s, node 3 5.5 s, each its first report, as long as the time since its "JVM Arguments" line. A later report on
 * the same node is a pause and is graded as before. The same holds for the first report after an operator restarted
 * gossip (nodetool enablegossip): it is the time gossip was off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import type { LogFacts } from '../../mcp-server/src/core/parse/logs/types.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const log = (node: number) => readFileSync(join(FIXTURES_DIR, 'lab-incident-outputs', `system-log-3node-start-4.1.10-node${node}.log`), 'utf8');
const facts = (text: string): LogFacts => {
  const p = parseLogs(text);
  if (!p.ok) throw new Error(p.reason);
  return p.value;
};
const localPause = (text: string) =>
  runRules({ origin: 't', nodes: [{ ...nodeEvidence('127.0.0.1', true, { facts: {}, nodetool: {} }), logs: facts(text) }] }).findings.filter(
    (f) => f.id === 'log.local-pause',
  );

describe('start-up "local pause" of the failure detector', () => {
  it.each([
    [1, 12241.92],
    [3, 5494.389],
  ])('node %i: its first report since start is set aside (%f ms), no finding', (node, ms) => {
    const l = facts(log(node));
    expect(l.localPauses).toMatchObject({ count: 0, startupSetAside: 1 });
    expect(l.localPauses.startupMaxMs).toBeCloseTo(ms, 2);
    expect(localPause(log(node))).toEqual([]);
  });

  it('a later report on the same node (derived: one line appended 10 minutes on) is counted and graded', () => {
    const later =
      'WARN  [GossipTasks:1] 2026-11-29 07:17:27,906 FailureDetector.java:335 - Not marking nodes down due to local pause of 7300000000ns > 5000000000ns';
    const text = `${log(1).trimEnd()}\n${later}\n`;
    const l = facts(text);
    expect(l.localPauses).toMatchObject({ count: 1, maxMs: 7300, startupSetAside: 1 });
    const f = localPause(text);
    expect(f).toHaveLength(1);
    expect(f[0]!.title).toContain('7300 ms');
  });

  it('a first report much shorter than the time since start is a real pause (the detector was already checking peers)', () => {
    // node 1's log cut before its start-up report, then a 6 s report 10 minutes after boot (derived)
    const lines = log(1).split('\n');
    const cut = lines.findIndex((x) => x.includes('local pause of'));
    const text = [
      ...lines.slice(0, cut),
      'WARN  [GossipTasks:1] 2026-11-29 07:17:14,537 FailureDetector.java:335 - Not marking nodes down due to local pause of 6000000000ns > 5000000000ns',
    ].join('\n');
    expect(facts(text).localPauses).toMatchObject({ count: 1, startupSetAside: 0 });
    expect(localPause(text)).toHaveLength(1);
  });

  it('without a boot line in the input nothing is set aside (an excerpt cannot show the start)', () => {
    const lines = log(3).split('\n');
    const text = lines.slice(lines.findIndex((x) => x.includes('JVM Arguments')) + 1).join('\n');
    expect(facts(text).localPauses).toMatchObject({ count: 1, startupSetAside: 0 });
  });

  it('nodetool disablegossip / enablegossip (schema-disagreement incident, node 3): the report after gossip restarts is set aside', () => {
    // Stopping gossip 08:03:59,071, starting 08:04:31,845, report of 32.5 s at 08:04:32,887 (33.8 s after the stop)
    const text = readFileSync(join(FIXTURES_DIR, 'lab-incident-outputs', 'system-log-disablegossip-4.1.10-node3.log'), 'utf8');
    const l = facts(text);
    expect(l.localPauses).toMatchObject({ count: 0, startupSetAside: 1, gossipOffSetAside: 1 });
    expect(l.localPauses.gossipOffMaxMs).toBeCloseTo(32491.912, 2);
    expect(localPause(text)).toEqual([]);
    // without the operator's restart line the same report is a pause again
    const cut = text
      .split('\n')
      .filter((x) => !x.includes('Starting gossip by operator request'))
      .join('\n');
    expect(facts(cut).localPauses).toMatchObject({ count: 1, gossipOffSetAside: 0 });
  });
});
