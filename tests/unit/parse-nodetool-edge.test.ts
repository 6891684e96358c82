import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { parseStatus, parseTablestats, parseTpstats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { cleanLines, stripCollectorPrefix } from '../../mcp-server/src/core/text.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import type { NodeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { renderSnapshot, summariseNode, type SnapshotView } from '../../mcp-server/src/render/snapshot.js';
import { fixture } from '../helpers/corpus.js';

// Hand-made edge cases (tests/fixtures/nodetool-edge/README.md) and real lab captures (tests/fixtures/lab).
const edge = (name: string) => fixture(`nodetool-edge/${name}`);
const LAB41 = 'lab/cassandra-4.1-1node/node1';

describe('pasted collector prefixes (core/text.ts)', () => {
  // The same status without any prefix: what every prefixed paste must parse to.
  const plain = edge('status-kubectl-prefix.txt').replace(/^\[pod\/cass-0\/cassandra\] /gm, '');

  it.each(['status-kubectl-prefix.txt', 'status-compose-prefix.txt', 'status-log4j-prefix.txt'])('%s parses like the bare output', (name) => {
    const base = parseStatus(plain);
    const r = parseStatus(edge(name));
    expect(base.ok).toBe(true);
    expect(r.ok).toBe(true);
    if (!r.ok || !base.ok) return;
    expect(r.value.nodes.map((n) => [n.code, n.address, n.loadBytes, n.hostId])).toEqual([
      ['UN', '10.0.0.1', Math.round(1.2 * 1024 ** 2), '4bd9a6a1-1d07-4d0c-9f5c-1b2a3c4d5e6f'],
      ['DN', '10.0.0.2', null, null],
    ]);
    expect(r.value).toEqual(base.value);
    expect(r.warnings).toEqual([]);
  });

  it('pdsh "host: " prefixes (same host on every line) are removed; one "Label: value" line is kept', () => {
    const pdsh = plain
      .split('\n')
      .map((l) => (l.trim() ? `n1: ${l}` : l))
      .join('\n');
    const r = parseStatus(pdsh);
    expect(r.ok).toBe(true);
    expect(r).toEqual(parseStatus(plain));
    expect(stripCollectorPrefix(['ReleaseVersion: 5.0.9'])).toEqual(['ReleaseVersion: 5.0.9']);
    // Different hosts interleaved: not stripped (the lines would mix two nodes' outputs).
    const two = ['n1: a', 'n2: b', 'n1: c'];
    expect(stripCollectorPrefix(two)).toEqual(two);
    // A log4j header with the file:line part.
    expect(
      stripCollectorPrefix(['INFO  [main] 2024-05-01 10:00:00,123 StorageService.java:12 - x', 'WARN  [main] 2024-05-01 10:00:01,000 Foo.java:3 - y']),
    ).toEqual(['x', 'y']);
  });

  it('detect() sees the kubectl and compose pastes as nodetool status', () => {
    for (const name of ['status-kubectl-prefix.txt', 'status-compose-prefix.txt']) {
      const d = detect(edge(name));
      expect(d.ok && d.kind).toBe('nodetool.status');
    }
  });

  it('strips a prefix only when every non-empty line carries it', () => {
    // One line without the prefix: not a collector paste, left as is.
    const mixed = ['[pod/a/b] Datacenter: dc1', 'UN  10.0.0.1'];
    expect(stripCollectorPrefix(mixed)).toEqual(mixed);
    // Output whose own lines share a literal start is not a prefix shape.
    const sys = ['/sys/block/sda/queue/scheduler:[none] mq-deadline', '/sys/block/sda/queue/nr_requests:64'];
    expect(stripCollectorPrefix(sys)).toEqual(sys);
    // compose pads service names to one width; unequal widths are a table, not a prefix.
    const table = ['a | 1', 'bb | 2'];
    expect(stripCollectorPrefix(table)).toEqual(table);
    // Two compose services (same padded width) and a prefix-only blank line.
    expect(stripCollectorPrefix(['cass-1  | x', 'cass-2  | y', 'cass-1  |', ''])).toEqual(['x', 'y', '', '']);
    // Existing prefixes keep working: ISO timestamps and common indentation.
    expect(cleanLines('2024-05-01T10:00:00.123Z a\nMay 01 10:00:00 host nodetool[12]: b')).toEqual(['a', 'b']);
    expect(cleanLines('    a\n      b')).toEqual(['a', '  b']);
  });

  it('a logger prefix on the first line only (an output logged as one message) is dropped for every parser', () => {
    expect(cleanLines('\ndtest: DEBUG: pending tasks: 0\n  id  type\n')).toEqual(['pending tasks: 0', '  id  type']);
    expect(cleanLines('node1: INFO: Datacenter: dc1\n=====')).toEqual(['Datacenter: dc1', '=====']);
    // Not when later lines carry it too, and not for labels that are not logger levels.
    expect(cleanLines('a: INFO: x\nb: INFO: y')).toEqual(['a: INFO: x', 'b: INFO: y']);
    expect(cleanLines('nodetool: Failed to connect\nmore')).toEqual(['nodetool: Failed to connect', 'more']);
  });
});

describe('nodetool status cut short', () => {
  it('a header with no node row is ok:false and says the node rows are missing', () => {
    const r = parseStatus(edge('status-header-only.txt'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no node row.*missing/);
  });

  it('a cut last row is counted in rowsNotParsed, and the warning stays', () => {
    const r = parseStatus(edge('status-truncated.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.nodes.map((n) => n.address)).toEqual(['10.0.0.1']);
    expect(r.value.rowsNotParsed).toEqual(['UN  10.0.0.2   1.3 Mi']);
    expect(r.warnings).toEqual(['unparsed node line: UN  10.0.0.2   1.3 Mi']);
  });

  it('a complete real status has no rows left unparsed', () => {
    const r = parseStatus(fixture(`${LAB41}/nodetool-status.txt`));
    expect(r.ok && r.value.rowsNotParsed).toEqual([]);
    expect(r.ok && r.value.nodes.length).toBe(1);
  });
});

describe('tablestats -H "Dropped Mutations: 0 bytes" (real 4.1 capture)', () => {
  it('keeps the count for every table and notes the oddity', () => {
    const text = fixture(`${LAB41}/nodetool-tablestats-H.txt`);
    expect(text).toMatch(/Dropped Mutations: 0 bytes/);
    const r = parseTablestats(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.tables.length).toBeGreaterThan(40);
    expect(r.value.tables.every((t) => t.droppedMutations === 0)).toBe(true);
    expect(r.value.notes.some((n) => /Dropped Mutations.*size unit.*count/.test(n))).toBe(true);
  });

  it('reads a unit multiple back as the count; the plain (non -H) capture carries no note', () => {
    const text = fixture(`${LAB41}/nodetool-tablestats-H.txt`).replace('Dropped Mutations: 0 bytes', 'Dropped Mutations: 1.5 KiB');
    const r = parseTablestats(text);
    expect(r.ok && r.value.tables.map((t) => t.droppedMutations).filter((d) => d !== 0)).toEqual([1536]);
    const plain = parseTablestats(fixture(`${LAB41}/nodetool-tablestats.txt`));
    expect(plain.ok && plain.value.tables.every((t) => t.droppedMutations === 0)).toBe(true);
    expect(plain.ok && plain.value.notes.some((n) => /Dropped Mutations/.test(n))).toBe(false);
  });
});

describe('tpstats cut before its dropped-messages table', () => {
  it('says the dropped table is missing instead of reporting 0 dropped', () => {
    const r = parseTpstats(edge('tpstats-truncated.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.droppedSection).toBe('missing');
    expect(r.value.totals.dropped).toBeNull();
    expect(r.value.pools.map((p) => p.name)).toEqual(['ReadStage', 'MiscStage', 'CompactionExecutor']);
    expect(r.warnings.join('\n')).toMatch(/no dropped-messages table/);
  });

  it('facts leave dropped messages unknown, so no rule or report can read "0 dropped"', () => {
    const r = nodeFactsFromRaw([{ name: 'nodetool:tpstats', text: edge('tpstats-truncated.txt') }]);
    expect(r.facts.droppedMessages).toBeUndefined();
    expect(r.facts.threadPools?.length).toBe(3);
    const rules = runRules({ origin: 'test', nodes: [nodeEvidence('n1', true, r)] });
    expect(rules.findings.some((f) => f.id === 'dropped.messages')).toBe(false);
    const report = interpretText(edge('tpstats-truncated.txt'));
    expect(report.kind).toBe('nodetool.tpstats');
    expect(report.warnings.join('\n')).toMatch(/no dropped-messages table/);
  });

  it('a complete real tpstats still gives dropped counts (0 per type) in the facts', () => {
    const text = fixture(`${LAB41}/nodetool-tpstats.txt`);
    const p = parseTpstats(text);
    expect(p.ok && p.value.droppedSection).toBe('present');
    expect(p.ok && p.value.totals.dropped).toBe(0);
    const r = nodeFactsFromRaw([{ name: 'nodetool:tpstats', text }]);
    expect(r.facts.droppedMessages?.['MUTATION_REQ']).toBe(0);
  });

  it('the snapshot report says "not collected" for a cut tpstats and 0 for a complete one', () => {
    const node = (text: string): NodeSnapshot => {
      const r = nodeFactsFromRaw([{ name: 'nodetool:tpstats', text }]);
      return {
        address: '10.0.0.1',
        datacenter: 'dc1',
        rack: 'r1',
        hostId: null,
        releaseVersion: '4.1.10',
        product: 'cassandra',
        upPerDriver: true,
        reachable: true,
        status: 'complete',
        ms: 1,
        sources: [],
        ...r,
      };
    };
    const cut = summariseNode(node(edge('tpstats-truncated.txt')));
    const full = summariseNode(node(fixture(`${LAB41}/nodetool-tpstats.txt`)));
    expect(cut.droppedMessages).toBeNull();
    expect(full.droppedMessages).toBe(0);
    const view = (n: typeof cut): SnapshotView => ({
      collectedAt: 'now',
      durationMs: 1,
      contactPoints: [],
      nodeCount: 1,
      reachableCount: 1,
      versions: [],
      queries: { cql: 0, nodetool: 1, failed: 0 },
      nodes: [n],
    });
    expect(renderSnapshot(view(cut))).toMatch(/\| not collected \|/);
    expect(renderSnapshot(view(full))).not.toMatch(/not collected/);
  });
});

describe('a cut status row is a finding, not silence', () => {
  it('interpret warns that node states were judged from the readable rows only', () => {
    const r = interpretText(fixture('nodetool-edge/status-truncated.txt'));
    const f = r.findings.find((x) => x.id === 'topology.status-incomplete');
    expect(f?.severity).toBe('warning');
    expect(f?.evidence.join(' ')).toContain('10.0.0.2');
    // A whole status from the lab has no such finding.
    expect(interpretText(fixture('lab/cassandra-5.0-3node/node1/nodetool-status.txt')).findings.map((x) => x.id)).not.toContain('topology.status-incomplete');
  });
});
