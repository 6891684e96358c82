/** The window as reported: CLI --window parsing, the wait's progress and cancellation, the text, the MCP bounds. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { windowArg } from '../../mcp-server/src/cli/commands/diagnose.js';
import { hostWindow } from '../../mcp-server/src/core/diagnosis/host-window.js';
import { parseProcSample } from '../../mcp-server/src/core/parse/proc/sample.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { hostGroups, waitWindow } from '../../mcp-server/src/ops/diagnose-window.js';
import type { DiagnosisReport } from '../../mcp-server/src/ops/diagnose.js';
import { diagnose } from '../../mcp-server/src/ops/diagnose.js';
import { renderDiagnosis, renderWindow } from '../../mcp-server/src/render/diagnosis.js';
import { renderReportMarkdown } from '../../mcp-server/src/render/report/markdown.js';
import { parseToppartitions } from '../../mcp-server/src/core/parse/nodetool/toppartitions.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';

const dir = join(__dirname, '..', 'fixtures', 'proc', 'iostat-pair');
const sample = (f: string) => parseProcSample(readFileSync(join(dir, f), 'utf8'));

describe('--window', () => {
  it('takes seconds or minutes, 0 for an instant sweep, and refuses the rest', () => {
    expect([windowArg('30'), windowArg('30s'), windowArg('2m'), windowArg('0'), windowArg('1.5min')]).toEqual([30, 30, 120, 0, 90]);
    for (const bad of ['-1', 'abc', '10h', '601', '']) expect(() => windowArg(bad), bad).toThrow(/--window/);
  });
  it('ops refuse a window out of range before connecting to anything', async () => {
    await expect(diagnose({ hosts: ['192.0.2.1'], windowSeconds: 601 })).rejects.toMatchObject({ code: 'BAD_WINDOW' });
    await expect(diagnose({ hosts: ['192.0.2.1'], windowSeconds: Number.NaN })).rejects.toMatchObject({ code: 'BAD_WINDOW' });
  });
  it('the wait reports progress each second and ends with CANCELLED when aborted', async () => {
    const seen: { progress?: number; total?: number }[] = [];
    await waitWindow(Date.now() + 1500, 2, (e) => seen.push(e));
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toMatchObject({ progress: 0, total: 2 });
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 300);
    await expect(waitWindow(Date.now() + 60_000, 60, undefined, ac.signal)).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });
  it("hosts are sampled on the lab's machine or through each node's nodetoolVia target, never guessed", () => {
    const local = () => new LocalTarget();
    expect(hostGroups({ lab: true }, ['127.0.0.1', '127.0.0.2'], local).groups.map((g) => [g.target.describe(), g.nodes])).toEqual([
      ['local', ['127.0.0.1', '127.0.0.2']],
    ]);
    const none = hostGroups({}, ['10.0.0.1'], local);
    expect(none.groups).toEqual([]);
    expect(none.note).toMatch(/give nodetoolVia/);
    const via = hostGroups({ nodetoolVia: 'ssh://ops@{host}' }, ['10.0.0.1', 'bad host'], local);
    expect(via.groups.map((g) => [g.target.kind, g.nodes])).toEqual([['ssh', ['10.0.0.1']]]);
    expect(via.note).toMatch(/bad host/);
  });
});

describe('the window in the text report', () => {
  it("shows per-node rates, per-host CPU and the busiest device as iostat would, and a chain's effects", () => {
    const report: DiagnosisReport = {
      origin: 'local lab',
      collectedAt: '2026-11-24T00:00:00Z',
      durationMs: 12_000,
      nodes: [{ address: '127.0.0.1', datacenter: 'dc1', releaseVersion: '4.1.5', status: 'complete' }],
      versions: ['4.1.5'],
      counts: { critical: 1, warning: 0, info: 0 },
      findings: [
        {
          id: 'jvm.gc.pause',
          severity: 'critical',
          node: '127.0.0.1',
          title: 'GC paused 127.0.0.1 for up to 900 ms — likely cause of: 42 messages dropped',
          evidence: ['127.0.0.1: nodetool gcstats over 10000 ms: max 900 ms', '→ 42 messages dropped: 127.0.0.1: MUTATION dropped 42'],
          recommendation: 'r',
          knowledgeIds: ['jvm.gc.pause'],
          confidence: 'high',
          sources: ['nodetool gcstats', 'log'],
          when: 'window',
          chain: {
            reason: 'same node',
            effects: [
              {
                id: 'dropped.messages',
                severity: 'critical',
                title: '42 messages dropped',
                evidence: ['127.0.0.1: MUTATION dropped 42'],
                recommendation: 'r',
                knowledgeIds: [],
                confidence: 'high',
              },
            ],
          },
        },
      ],
      checked: [],
      window: {
        requestedSeconds: 10,
        seconds: 10.2,
        firstSweepSeconds: 3,
        latency: 'recent p99 only',
        notes: [],
        nodes: [
          {
            node: '127.0.0.1',
            seconds: 10.2,
            localReadsPerS: 50,
            localWritesPerS: 200,
            coordinatorReadsPerS: 30,
            coordinatorWritesPerS: 70,
            tables: [{ table: 'ks.t', readsPerS: 50, writesPerS: 200, source: 'x' }],
            droppedInWindow: { MUTATION: 42 },
            droppedPerS: 4.1,
            blockedInWindow: {},
            blockedPerS: 0,
            gcMsPerS: 40,
            gcMaxPauseMs: 900,
            compactedBytesPerS: 5 * 1024 * 1024,
            compactedSource: 'x',
            notes: [],
          },
        ],
        hosts: [{ target: 'local', nodes: ['127.0.0.1'], window: hostWindow(sample('before.txt'), sample('after.txt')) }],
      },
    };
    const text = renderDiagnosis(report);
    expect(text).toMatch(/2 sources agree: nodetool gcstats, log/);
    expect(text).toMatch(/→ likely effect \[critical\] 42 messages dropped: 127\.0\.0\.1: MUTATION dropped 42/);
    expect(text.match(/42 messages dropped: 127/g)).toHaveLength(1);
    expect(text).toMatch(/Window: 10\.2 s between two sweeps \(asked 10 s\)/);
    expect(text).toMatch(
      /127\.0\.0\.1: coordinator 30\.0 reads\/s \+ 70\.0 writes\/s · local 50\.0 reads\/s \+ 200 writes\/s · dropped 4\.1\/s · blocked 0\.0\/s · GC 40\.0 ms\/s/,
    );
    expect(text).toMatch(/host local \(127\.0\.0\.1\): CPU user 2\d\.\d % sys 2\d\.\d % iowait 2\d\.\d %/);
    // vda led the recorded window: about 14,150 IOPS (iostat: 12,853 r/s + 1,286 w/s + 10 d/s) at 73 % util.
    expect(text).toMatch(/- vda: 14\d{3} IOPS, 2\d\d MB\/s, 20\.\d kB\/request, .* aqu-sz 0\.7\d \(Little.s law 0\.7\d\), util 7\d\.\d %/);
  });
});

describe('the partition sample in the window', () => {
  const profiled = parseToppartitions(readFileSync(join(__dirname, '..', 'fixtures', 'nodetool-toppartitions', '5.0-profileload-hot-key.txt'), 'utf8'));
  if (!profiled.ok) throw new Error('the recorded profileload output must parse');
  const window = (profileload: NonNullable<DiagnosisReport['window']>['profileload']): NonNullable<DiagnosisReport['window']> => ({
    requestedSeconds: 20,
    seconds: 20.4,
    firstSweepSeconds: 3,
    latency: 'recent p99 only',
    notes: [],
    nodes: [],
    hosts: [],
    ...(profileload ? { profileload } : {}),
  });
  it('shows per node the keys nodetool profileload saw most, so the report shows what a hot-key finding read', () => {
    const w = window({
      durationMs: 17_000,
      nodes: [
        { node: '127.0.0.1', durationMs: 17_000, samplers: profiled.value.samplers },
        { node: '127.0.0.2', durationMs: 17_000, error: 'NODETOOL_TIMEOUT: nodetool profileload did not answer in 37 s' },
      ],
    });
    const lines = renderWindow(w);
    expect(lines).toContain('- partition sample: nodetool profileload for 17.0 s on each node');
    // The recorded 5.0.9 sample: key 42 took 2,458 of the reads and 1,967 writes.
    expect(lines).toContain('  - 127.0.0.1: reads: h3hot.kv "42" ×2458; writes: h3hot.kv "42" ×1967, h3hot.kv "4054" ×2, h3hot.kv "4230" ×2');
    expect(lines).toContain('  - 127.0.0.2: no sample: NODETOOL_TIMEOUT: nodetool profileload did not answer in 37 s');
    const md = renderReportMarkdown(
      {
        origin: 'lab',
        collectedAt: '2026-11-25T00:00:00Z',
        durationMs: 1,
        nodes: [],
        versions: [],
        counts: { critical: 0, warning: 0, info: 0 },
        findings: [],
        checked: [],
        window: w,
      },
      'test',
    );
    expect(md).toContain('h3hot.kv "42" ×2458');
  });
  it('a key from the cluster is printed escaped, and a window too short to sample says so', () => {
    const hostile = { reads: [{ table: 'ks.t', partition: 'a"\nrm -rf /\u001b[2J', count: 9, error: 0 }] };
    const w = window({ durationMs: 5000, nodes: [{ node: 'n1', durationMs: 5000, samplers: hostile }] });
    const line = renderWindow(w).find((l) => l.includes('ks.t'))!;
    expect(line).toContain('ks.t "a\\"\\u000arm -rf /\\u001b[2J" ×9');
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    expect(line).not.toMatch(/[\u0000-\u001f]/);
    expect(renderWindow(window({ durationMs: null, nodes: [], note: 'a 4 s window leaves no time to sample' }))).toContain(
      '- partition sample: not taken: a 4 s window leaves no time to sample',
    );
    expect(renderWindow(window(undefined)).some((l) => l.includes('partition sample'))).toBe(false);
  });
});

describe('MCP diagnose', () => {
  it('lists windowSeconds (default 10, at most 600) and refuses a larger one', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'diagnose')!;
      expect((tool.inputSchema.properties as Record<string, unknown>)['windowSeconds']).toMatchObject({ default: 10, minimum: 0, maximum: 600 });
      const r = await client
        .callTool({ name: 'diagnose', arguments: { hosts: ['192.0.2.1'], windowSeconds: 601 } })
        .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toMatch(/windowSeconds|600/);
    } finally {
      await client.close();
    }
  });
});
