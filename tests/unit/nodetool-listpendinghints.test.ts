/**
 * `nodetool listpendinghints` (Cassandra 4.1+), a kind module (core/kinds/nodetool-listpendinghints/): real
 * captures from the local lab (node 3 with gossip disabled while node 1 took writes at ONE; 4.1.10 and 5.0.9), judged
 * by the same hint rule as system_views.pending_hints: hints for a DOWN target wait (warning), a span past
 * max_hint_window needs a repair (critical), an UP target's hints are a replay backlog (info), none is nothing to do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseListPendingHints } from '../../mcp-server/src/core/kinds/nodetool-listpendinghints/parse.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const DIR = join(FIXTURES_DIR, 'nodetool-listpendinghints');
const read = (f: string) => readFileSync(join(DIR, f), 'utf8');

describe('nodetool listpendinghints', () => {
  const rowOf = (file: string) => {
    const p = parseListPendingHints(read(file));
    if (!p.ok) throw new Error(p.reason);
    expect(p.value.none).toBe(false);
    expect(p.value.rows).toHaveLength(1);
    return p.value.rows[0]!;
  };

  it('5.0.9, node 3 DOWN: one hint file waits for it, a warning that names it', () => {
    const file = 'listpendinghints_cassandra-5.0.9_node3-down_local-lab.txt';
    expect(rowOf(file)).toEqual({
      hostId: '633764ad-c270-4fb2-98b4-a1e73c9db686',
      address: '127.0.0.3:7000',
      rack: 'rack1',
      dc: 'datacenter1',
      status: 'DOWN',
      files: 1,
      newest: '2026-11-29T07:20:58.177Z',
      oldest: '2026-11-29T07:20:58.177Z',
      line: 2,
    });
    const r = interpretText(read(file));
    expect(r.kind).toBe('nodetool.listpendinghints');
    expect(r.findings.map((f) => [f.id, f.severity, f.node])).toEqual([['repair.hints-for-down-node', 'warning', '127.0.0.3:7000']]);
    expect(r.findings[0]!.title).toBe('1 hint file(s) wait for 127.0.0.3:7000, which is down');
    expect(r.findings[0]!.evidence[0]).toMatch(
      /^this node: 1 hint file\(s\) for 127\.0\.0\.3:7000, status DOWN, .*hint window 3 h \(default 3 h\) \[nodetool listpendinghints\]$/,
    );
  });

  it('5.0.9, node 3 UP during replay: a replay backlog (info)', () => {
    const file = 'listpendinghints_cassandra-5.0.9_node3-up-replaying_local-lab.txt';
    expect(rowOf(file).status).toBe('UP');
    const r = interpretText(read(file));
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['repair.hint-backlog', 'info']]);
    expect(r.findings[0]!.title).toBe('1 hint file(s) still to replay to 127.0.0.3:7000');
  });

  it('4.1.10 prints a DOWN target as "Unknown": the finding says its state is not shown, and does not call it up', () => {
    const file = 'listpendinghints_cassandra-4.1.10_node3-down_local-lab.txt';
    expect(rowOf(file)).toMatchObject({ address: '127.0.0.3:7000', status: 'Unknown', files: 1 });
    const r = interpretText(read(file));
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['repair.hint-backlog', 'info']]);
    expect(r.findings[0]!.title).toBe('1 hint file(s) held for 127.0.0.3:7000, whose state the holder does not show');
    expect(r.findings[0]!.recommendation).toMatch(/^Check 127\.0\.0\.3:7000 in nodetool status: if it is down/);
  });

  it.each(['4.1.10', '5.0.9'])('%s: "This node does not have any pending hints" reads as checked, nothing to do', (v) => {
    const r = interpretText(read(`listpendinghints_cassandra-${v}_none_local-lab.txt`));
    expect(r.kind).toBe('nodetool.listpendinghints');
    expect(r.findings).toEqual([]);
    expect(r.checked).toEqual([expect.objectContaining({ rule: 'hints.per-target', checked: true, findings: 0 })]);
  });

  it('hints spanning more than the 3 h default window are a critical: repair that node', () => {
    const r = interpretText(read('listpendinghints_cassandra-5.0.9_node3-down-4h-span_derived.txt'));
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['repair.hint-window-exceeded', 'critical']]);
    expect(r.findings[0]!.recommendation).toMatch(/nodetool repair -full/);
  });

  it('an UP target is a replay backlog (info); rows pasted without the header are still read, anonymised ids kept', () => {
    const rows = [
      'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  10.0.0.12:7000  rack1  dc1  UP    3            2026-11-29 06:41:10,512  2026-11-29 06:40:02,001',
      '12345abc-aaaa-zzzz-0000-000000000000  10.0.0.13:7000  rack2  dc1  DOWN  7            2026-11-29 06:41:11,000  2026-11-29 06:30:00,000',
    ].join('\n');
    const p = parseListPendingHints(rows);
    expect(p.ok && p.value.rows.map((x) => [x.hostId, x.status, x.files])).toEqual([
      ['xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', 'UP', 3],
      ['12345abc-aaaa-zzzz-0000-000000000000', 'DOWN', 7],
    ]);
    expect(p.ok && p.warnings).toEqual(['the header line is missing: rows read by their shape']);
    expect(detect(rows)).toMatchObject({ ok: true, kind: 'nodetool.listpendinghints' });
    const r = interpretText(rows);
    expect(r.findings.map((f) => [f.id, f.severity, f.node])).toEqual([
      ['repair.hints-for-down-node', 'warning', '10.0.0.13:7000'],
      ['repair.hint-backlog', 'info', '10.0.0.12:7000'],
    ]);
  });

  it('a row the table cannot hold is named, the rest read; text with neither header nor rows is refused with a reason', () => {
    const text = `${read('listpendinghints_cassandra-5.0.9_node3-down_local-lab.txt').trimEnd()}\nsomething else\n`;
    const p = parseListPendingHints(text);
    expect(p.ok && p.value.rows.length).toBe(1);
    expect(p.ok && p.warnings.some((w) => /is not a hint row: something else/.test(w))).toBe(true);
    const bad = parseListPendingHints('Host  Address\nfoo bar\n');
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.reason).toMatch(/no "Host ID/);
  });
});
