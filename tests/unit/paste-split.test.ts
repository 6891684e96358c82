import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { splitPaste } from '../../mcp-server/src/core/parse/paste/split.js';
import type { LogFacts } from '../../mcp-server/src/core/parse/logs/types.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { renderInterpret } from '../../mcp-server/src/render/interpret.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

// Several outputs in one paste (issue #14): each is detected alone, and the report says which lines held which.

const STATUS = [
  'Datacenter: dc1',
  '===============',
  'Status=Up/Down',
  '|/ State=Normal/Leaving/Joining/Moving',
  '--  Address    Load       Tokens  Owns (effective)  Host ID                               Rack',
  'UN  10.0.0.1   1.2 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000001  r1',
  'DN  10.0.0.2   1.1 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000002  r1',
  'UN  10.0.0.3   1.2 GiB    16      66.7%             0b9c7a1e-0000-4000-8000-000000000003  r1',
];
const TPSTATS = [
  'Pool Name                         Active   Pending      Completed   Blocked  All time blocked',
  'ReadStage                              0         0          12345         0                 0',
  'MutationStage                         32      4096        1234567         0                 0',
  'CompactionExecutor                     2        31           5678         0                 0',
  '',
  'Message type           Dropped',
  'READ                         0',
  'MUTATION                  1096',
];
const VERSION = ['ReleaseVersion: 4.1.3'];

const lines = (text: string, from: number, to: number) => text.split('\n').slice(from - 1, to);

describe('splitPaste', () => {
  it('cuts at shell prompts of every form and keeps each part’s pasted line numbers', () => {
    const text = [
      ...['$ nodetool status', ...STATUS, ''],
      ...['root@cassandra-0:/# nodetool tpstats', ...TPSTATS],
      ...['[centos@ip-172-31-38-1 ~]$ nodetool version', ...VERSION],
    ].join('\n');
    const { parts } = splitPaste(text);
    expect(parts.map((p) => [p.command, p.from, p.to])).toEqual([
      ['nodetool status', 1, 9],
      ['nodetool tpstats', 11, 19],
      ['nodetool version', 20, 21],
    ]);
    for (const p of parts) expect(p.text.split('\n')).toEqual(lines(text, p.from, p.to));
    expect(parts.map((p) => detect(p.text)).map((d) => (d.ok ? d.kind : d.reason))).toEqual(['nodetool.status', 'nodetool.tpstats', 'nodetool.version']);
  });

  it('cuts at fenced blocks under markdown headings, and sees prompts behind a quote', () => {
    const fenced = ['## nodetool status', '```', ...STATUS, '```', '', '## tpstats on the same node', '```', ...TPSTATS, '```'].join('\n');
    const a = splitPaste(fenced).parts;
    expect(a.map((p) => [p.heading, p.from, p.to])).toEqual([
      ['nodetool status', 3, 10],
      ['tpstats on the same node', 15, 22],
    ]);
    const quoted = ['$ nodetool status', ...STATUS, '$ nodetool tpstats', ...TPSTATS].map((l) => `> ${l}`).join('\n');
    const b = splitPaste(quoted);
    expect(b.cleaned.applied).toEqual(['md-quote']);
    expect(b.parts.map((p) => p.command)).toEqual(['nodetool status', 'nodetool tpstats']);
  });

  it('a cqlsh session is one part (statements with no output between them belong together)', () => {
    const text = [
      "cqlsh> CREATE KEYSPACE test WITH REPLICATION = { 'class' : 'SimpleStrategy', 'replication_factor' : 1 };",
      'cqlsh> CREATE TABLE test.users (user_name varchar PRIMARY KEY, birth_year bigint);',
      "cqlsh> INSERT INTO test.users (user_name, birth_year) values ('a', 1970);",
      '$ nodetool status',
      ...STATUS,
    ].join('\n');
    expect(splitPaste(text).parts.map((p) => [p.from, p.to])).toEqual([
      [1, 3],
      [4, 12],
    ]);
  });

  it('does not cut one output: a log, a YAML whose comments name nodetool, a status with its command echo', () => {
    const yaml = [
      '# Cassandra storage config',
      '# nodetool drain before stopping',
      'cluster_name: x',
      '# Tokens per node',
      '# nodetool status',
      'num_tokens: 16',
    ];
    const log = [
      'INFO  [main] 2024-05-01 10:00:00,123 StorageService.java:123 - Node is ready',
      'WARN  [ReadStage-2] 2024-05-01 10:00:01,000 ReadCommand.java:569 - Read 10 live rows and 1001 tombstone cells',
    ].join('\n');
    for (const text of [yaml.join('\n'), log, ['$ nodetool status', ...STATUS].join('\n')]) expect(splitPaste(text).parts).toHaveLength(1);
  });
});

describe('interpret: a report per output', () => {
  it('a multi-output paste gives parts, the main kind on top and the findings of every part', () => {
    const text = ['$ nodetool status', ...STATUS, '', '$ nodetool tpstats', ...TPSTATS, '', '$ nodetool version', ...VERSION].join('\n');
    const r = interpretText(text);
    expect(r.ok).toBe(true);
    // The top level keeps the kind the whole paste was read as before parts existed (tpstats' signature is tried
    // before status'), so a consumer of `kind` sees no change.
    const before = detect(text);
    expect(r.kind).toBe(before.ok ? before.kind : null);
    expect(r.parts?.map((p) => [p.kind, p.command, p.lines.from, p.lines.to])).toEqual([
      ['nodetool.status', 'nodetool status', 1, 9],
      ['nodetool.tpstats', 'nodetool tpstats', 11, 19],
      ['nodetool.version', 'nodetool version', 21, 22],
    ]);
    expect(r.parts?.[2]?.version).toBe('4.1.3');
    const ids = r.findings.map((f) => f.id);
    expect(ids).toContain('topology.node-down');
    // The tpstats part's own findings reach the top level too.
    const tpIds = r.parts![1]!.findings.map((f) => f.id);
    expect(tpIds.length).toBeGreaterThan(0);
    for (const id of tpIds) expect(ids).toContain(id);
    expect(r.summary).toMatch(/^3 outputs in this paste; main: nodetool\.tpstats at lines 11–19 \(nodetool tpstats\): /);
    expect(r.summary).toMatch(/Also: nodetool\.status at lines 1–9 \(nodetool status\); nodetool\.version at lines 21–22/);
    const shown = renderInterpret(r);
    expect(shown).toContain('## Part 2 (lines 11–19, `nodetool tpstats`): nodetool.tpstats');
  });

  it('one output keeps the single-report shape (no parts, no cleaned)', () => {
    const r = interpretText(['$ nodetool status', ...STATUS].join('\n'));
    expect(r.kind).toBe('nodetool.status');
    expect(Object.keys(r).sort()).toEqual(['checked', 'findings', 'kind', 'ok', 'summary', 'version', 'warnings']);
  });

  it('a wrapped paste says what was stripped, and log evidence cites the pasted line numbers', () => {
    const kibana = (m: string) => `December 29th 2023, 21:44:10.791${m}`;
    const text = [
      'Here is what Kibana shows:',
      '```',
      kibana('WARN  2023-12-29 21:44:10,790 [shard  6] large_data - Writing large partition ks/t: pk (1234567890 bytes) to ks-t-big-Data.db'),
      kibana('INFO  2023-12-29 21:44:11,000 [shard  6] compaction - Compacting [ks-t-big-Data.db]'),
      '```',
    ].join('\n');
    const d = detect(text);
    expect(d.ok && d.kind).toBe('logs');
    expect(d.ok && d.cleaned).toEqual(['code-fence', 'kibana']);
    const events = JSON.stringify(((d.ok ? d.parsed.value : null) as LogFacts).events);
    // The large partition is line 3 of the paste (a sentence and a fence come first), not line 2 of the cleaned text.
    expect(events).toMatch(/"lineNo":3[,}]/);
    expect(events).not.toMatch(/"lineNo":2[,}]/);
    const r = interpretText(text);
    expect(r.cleaned).toEqual(['code-fence', 'kibana']);
    expect(r.summary).toMatch(/read after stripping code fences and Kibana timestamp columns/);
  });
});

describe('real-world pastes of the tuned split that only cleaning makes readable', () => {
  // Each was "not recognised" before paste hygiene; the wrappers are the ones the sample carries.
  const cases: [file: string, kind: string, cleaned: string[] | undefined][] = [
    ['status_quoted-elassandra-all-dn_elassandra245.txt', 'nodetool.status', ['md-quote']],
    ['log_sct-semaphore-timed-out_scylla4994.txt', 'logs', ['sct-prefix']],
    ['log_sct-grep-unpaged-tombstone-limit_scylla12268.txt', 'logs', ['sct-prefix']],
    ['log_kibana-prefix-unpaged-tombstones_scylla16564.txt', 'logs', ['kibana']],
    // `host scylla:` without a pid: the syslog wrapper says these are log lines.
    ['log_syslog-major-compaction-after-ttl_scylla2249.txt', 'logs', undefined],
  ];
  it('the journald time under the SCT prefix is kept (the log parser reads the text just outside the journald prefix)', () => {
    const r = interpretText(readFileSync(join(FIXTURES_DIR, 'real-world', 'log_sct-semaphore-timed-out_scylla4994.txt'), 'utf8'));
    expect(r.summary).toMatch(/from 2019-09-05T18:04:20/);
  });

  for (const [file, kind, cleaned] of cases) {
    it(file, () => {
      const text = readFileSync(join(FIXTURES_DIR, 'real-world', file), 'utf8');
      const r = interpretText(text);
      expect(r.kind, r.summary).toBe(kind);
      expect(r.cleaned).toEqual(cleaned);
    });
  }
});

describe('fabric output of one command on several hosts (cstar_perf#120)', () => {
  const text = readFileSync(join(FIXTURES_DIR, 'real-world', 'compactionstats_fab-prefixed-pending-29-hints-70gb-cut_cstarperf120.txt'), 'utf8');

  it('regroups the "[host] out:" lines per host, keeps original line numbers and the command run', () => {
    const { parts } = splitPaste(text);
    const hosts = parts.filter((p) => p.host !== null);
    expect(hosts.map((p) => [p.host, p.from, p.command?.endsWith('nodetool compactionstats')])).toEqual([
      ['blade-11-4a', 8, true],
      ['blade-11-3a', 16, true],
    ]);
    expect(hosts[0]!.text.split('\n')[0]).toBe('pending tasks: 29');
    expect(hosts[0]!.lineMap.slice(0, 2)).toEqual([8, 9]);
    // the cut tail of an earlier host's output, with no prefix, is a part of its own
    expect(parts[0]).toMatchObject({ host: null, from: 1, to: 1 });
  });

  it('reads each host as its own compactionstats and names the host in its findings', () => {
    const r = interpretText(text);
    expect(r.kind).toBe('nodetool.compactionstats');
    expect(r.findings.filter((f) => f.id === 'compaction.pending').map((f) => [f.node, f.title])).toEqual(
      expect.arrayContaining([['blade-11-4a', expect.stringMatching(/^29 pending compactions on blade-11-4a/)]]),
    );
  });

  it('one prefixed line is not a fabric run; interleaved hosts are still separated', () => {
    expect(splitPaste('[web1] out: hello\nplain text').parts.every((p) => p.host === null)).toBe(true);
    const mixed = ['[a] out: line a1', '[b] out: line b1', '[a] out: line a2', '[b] out: line b2'].join('\n');
    expect(splitPaste(mixed).parts.map((p) => [p.host, p.text, p.lineMap])).toEqual([
      ['a', 'line a1\nline a2', [1, 3]],
      ['b', 'line b1\nline b2', [2, 4]],
    ]);
  });
});
