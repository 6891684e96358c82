/**
 * `diagnose --bundle DIR --log NODE=PATH` reads the logs into the diagnosis (it silently ignored --log before).
 * The bundle is a real lab capture written under the address of the sperf node whose real system.log and
 * debug.log are given (tests/fixtures/sperf/SOURCES.tsv): the report must carry sperf's 1096 dropped mutations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { captureCli } from '../helpers/capture-cli.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { NodeRaw } from '../../mcp-server/src/ops/sweep.js';
import { diagnoseBundle } from '../../mcp-server/src/ops/diagnose.js';
import { diagnoseCommand } from '../../mcp-server/src/cli/commands/diagnose.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { fixture } from '../helpers/corpus.js';

const NODE = '10.101.35.102';
const SPERF = join(import.meta.dirname, '..', 'fixtures', 'sperf');
const LOGS = ['system.log', 'debug.log'].map((f) => join(SPERF, `dse677-${NODE}-${f}.gz`));
const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-bundle-log-'));
const bundle = join(tmp, 'b');

beforeAll(async () => {
  const raw: NodeRaw[] = [
    {
      node: { address: NODE, cqlPort: 9042, jmxHost: NODE, jmxPort: 7199, datacenter: 'dc1', rack: 'r1', hostId: null, upPerDriver: true },
      ms: 10,
      cqlReachable: false,
      virtualTables: [],
      sources: ['tpstats', 'info'].map((sub) => ({
        name: `nodetool:${sub}`,
        via: 'nodetool',
        ok: true,
        ms: 5,
        text: fixture(`lab/cassandra-5.0-3node/node1/nodetool-${sub}.txt`),
      })),
    },
  ];
  const meta = { tool: { name: 'cql-tuner' as const, version: 'test' }, collectedAt: '2026-11-22T00:00:00.000Z', durationMs: 1, contactPoints: [NODE] };
  await writeBundle(bundle, meta, raw);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function runCli(args: string[]): Promise<{ out: string; err: string; code: number | undefined }> {
  const r = await captureCli(() => diagnoseCommand().exitOverride().parseAsync(args, { from: 'user' }));
  return { out: r.out, err: r.err, code: r.exitCode };
}

describe('diagnose --bundle honours --log', () => {
  it('ops: the logs join the bundle node they name', async () => {
    const plain = await diagnoseBundle(bundle);
    expect(plain.findings.some((f) => f.id.startsWith('log.'))).toBe(false);
    const r = await diagnoseBundle(bundle, { logFiles: { [NODE]: LOGS } });
    const dropped = r.findings.find((f) => f.id === 'log.dropped')!;
    expect(dropped.title).toBe(`1096 messages dropped according to the log of ${NODE}`);
    expect(r.findings.find((f) => f.id === 'log.gc-pause')?.title).toMatch(/^12 GC pauses/);
    expect(r.checked.find((o) => o.rule === 'logs')?.checked).toBe(true);
  });

  it('cli: --bundle with --log reads the logs; a node not in the bundle exits 2 with a message', async () => {
    const ok = await runCli(['--bundle', bundle, '--log', `${NODE}=${LOGS[0]}`, '--log', `${NODE}=${LOGS[1]}`, '--json']);
    const report = JSON.parse(ok.out) as { findings: { id: string; title: string }[] };
    expect(report.findings.find((f) => f.id === 'log.dropped')?.title).toContain('1096 messages dropped');
    const bad = await runCli(['--bundle', bundle, '--log', `10.9.9.9=${LOGS[0]}`]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/logs were given for 10\.9\.9\.9, which is not a node of the bundle/);
    expect(bad.err).toContain(NODE);
    const missing = await runCli(['--bundle', bundle, '--log', `${NODE}=${join(tmp, 'nope.log')}`]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/LOG_UNREADABLE/);
  });

  it('mcp: diagnose with a bundle reads logFiles too (it dropped them before)', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createServer();
    await server.connect(b);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(a);
    try {
      const r = await client.callTool({ name: 'diagnose', arguments: { bundle, logFiles: { [NODE]: LOGS } } });
      const findings = (r.structuredContent as { findings: { id: string; title: string }[] }).findings;
      expect(findings.find((f) => f.id === 'log.dropped')?.title).toContain('1096 messages dropped');
    } finally {
      await client.close();
    }
  });
});
