import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cassandra from 'cassandra-driver';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labNodetoolArgv, labStatus } from '../../mcp-server/src/lab/index.js';
import { diagnose, diagnoseBundle } from '../../mcp-server/src/ops/diagnose.js';
import { analyzeBundle, takeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { snapshotView } from '../../mcp-server/src/render/snapshot.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { tempLabHome } from '../helpers/lab-home.js';
import { BUNDLE, connectBundle } from '../helpers/mcp-client.js';

// A real 3-node Cassandra 5.0 cluster on 127.0.0.1–3, snapshotted the way users do it.
const lab = tempLabHome('cql-tuner-snap-');
const { home } = lab;
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 3, version: '5.0' });
  // Some user data so per-table facts have something to show.
  const client = new cassandra.Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1' });
  await client.connect();
  await client.execute("CREATE KEYSPACE IF NOT EXISTS snap_ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
  await client.execute('CREATE TABLE IF NOT EXISTS snap_ks.events (id int, seq int, payload text, PRIMARY KEY (id, seq))');
  const insert = 'INSERT INTO snap_ks.events (id, seq, payload) VALUES (?, ?, ?)';
  for (let b = 0; b < 20; b++) {
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.execute(insert, [b, i, 'x'.repeat(200)], { prepare: true })));
  }
  for (let i = 0; i < 20; i++) await client.execute('SELECT * FROM snap_ks.events WHERE id = ?', [i], { prepare: true });
  await client.shutdown();
}, 400_000);

afterAll(async () => {
  if (skip) return;
  await lab.stop();
}, 180_000);

describe.skipIf(skip)('cluster snapshot on a real 3-node lab', () => {
  let bundleDir = '';
  let live: Awaited<ReturnType<typeof takeSnapshot>> | null = null;

  it('returns 3 reachable nodes with versions, pools, tables, heap and GC', async () => {
    bundleDir = join(home, 'bundle-1');
    const s = await takeSnapshot({ lab: true, bundleDir });
    live = s;
    const v = snapshotView(s);
    expect(v.nodeCount).toBe(3);
    expect(v.reachableCount).toBe(3);
    expect(v.versions).toEqual([expect.stringMatching(/^5\.0\./)]);
    for (const n of s.nodes) {
      expect(n.releaseVersion).toMatch(/^5\.0\./);
      expect(n.datacenter).toBe('datacenter1');
      expect(n.facts.threadPools?.map((p) => p.name)).toContain('CompactionExecutor');
      expect(n.facts.tables?.some((t) => t.keyspace === 'snap_ks' && t.table === 'events')).toBe(true);
      expect(n.facts.settings?.['num_tokens']).toBe('16');
      expect(n.facts.heap?.maxMb).toBeGreaterThan(400);
      expect(n.facts.gc).toBeDefined();
      expect(n.facts.droppedMessages).toBeDefined();
      expect(n.sources.filter((x) => !x.ok)).toEqual([]);
    }
    expect(s.nodes.map((n) => n.address)).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
  }, 120_000);

  it('a bundle re-analysed offline gives the same facts', async () => {
    expect(existsSync(join(bundleDir, 'manifest.json'))).toBe(true);
    const again = await analyzeBundle(bundleDir);
    expect(again.nodes.length).toBe(3);
    // Offline equals live: the same facts per node from the same raw outputs (not the bundle against itself).
    expect(live).not.toBeNull();
    for (let i = 0; i < 3; i++) {
      const [off, on] = [again.nodes[i]!, live!.nodes[i]!];
      expect(off.address).toBe(on.address);
      expect(off.status).toBe(on.status);
      expect(off.releaseVersion).toBe(on.releaseVersion);
      expect(off.facts).toEqual(on.facts);
      expect(off.nodetool).toEqual(on.nodetool);
    }
    expect(again.nodes[0]!.facts.tables?.length).toBeGreaterThan(10);
    expect(again.nodes.map((n) => n.releaseVersion)).toEqual(
      ['5.0.9', '5.0.9', '5.0.9'].map((x): unknown => expect.stringMatching(new RegExp(`^${x.slice(0, 3)}`))),
    );
  });

  it('a healthy 3-node cluster diagnoses with no warnings, and its bundle the same offline', async () => {
    const live = await diagnose({ lab: true });
    // The lab's logs record its own start-up on a 2-core host (three JVMs booting starve each other: local
    // pauses, GC during boot). That is real and reported; the live state itself must be clean.
    // A young JVM on a starved host can also pause for real between two gcstats calls (seen: 624 ms on one
    // node in CI). Such a finding must be measured evidence, not noise; everything else must be clean.
    // The heap rule only warns when that node's GC is under pressure (seen: 82 % with a 270 ms pause), so a
    // heap warning is accepted only beside a measured GC pause finding on the same node.
    const paused = (fs: Finding[]) => new Set(fs.filter((f) => f.id === 'jvm.gc.pause').map((f) => f.node));
    const gcDrivenIn = (fs: Finding[]) => (f: Finding) =>
      f.id === 'jvm.gc.pause' || (f.id === 'cluster.outlier' && /GC pause/.test(f.title)) || (f.id === 'jvm.heap.used-ratio' && paused(fs).has(f.node));
    const gcDriven = gcDrivenIn(live.findings);
    for (const f of live.findings.filter(gcDriven)) expect(f.evidence.join(' ')).toMatch(/gcstats|GC pause \d/);
    expect(live.findings.filter((f) => f.severity !== 'info' && !f.id.startsWith('log.') && !gcDriven(f))).toEqual([]);
    expect(live.checked.find((c) => c.rule === 'logs')?.checked).toBe(true);
    // The planner on the real ring (16 allocator-placed tokens per node, snap_ks RF 3): where node 4 goes and what the
    // allocator would leave (kb:ownership.allocator-spread).
    expect(live.findings.find((f) => f.id === 'ownership.next-node')?.title).toMatch(
      /^Next node of datacenter1: rack rack1; with the token allocator a DC of 4 nodes × 16 token\(s\) comes out at about 1\.06×/,
    );
    expect(live.checked.filter((c) => !c.checked).map((c) => c.rule)).toEqual([]);
    const offline = await diagnoseBundle(bundleDir);
    expect(offline.findings.filter((f) => f.severity !== 'info' && !gcDrivenIn(offline.findings)(f))).toEqual([]);
  }, 120_000);

  it('through the built server (MCP cluster_snapshot) and the CLI: compact summary, raw only when asked', async () => {
    const conn = await connectBundle({ CQL_TUNER_HOME: home });
    try {
      const plain = await conn.client.callTool({ name: 'cluster_snapshot', arguments: { lab: true } }, undefined, { timeout: 120_000 });
      expect(plain.isError).toBeFalsy();
      const sc = plain.structuredContent as { nodeCount: number; reachableCount: number; raw?: unknown; nodes: { status: string }[] };
      expect([sc.nodeCount, sc.reachableCount]).toEqual([3, 3]);
      expect(sc.nodes.map((n) => n.status)).toEqual(['complete', 'complete', 'complete']);
      expect(sc.raw).toBeUndefined();
      const plainText = (plain.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      expect(plainText).not.toContain('Pool Name');
      const withRaw = await conn.client.callTool(
        { name: 'cluster_snapshot', arguments: { lab: true, raw: { node: '127.0.0.2', source: 'tpstats' } } },
        undefined,
        { timeout: 120_000 },
      );
      const raw = (withRaw.structuredContent as { raw: { outputs: { node: string; source: string; text: string }[] } }).raw;
      expect(raw.outputs.map((o) => [o.node, o.source])).toEqual([['127.0.0.2', 'nodetool:tpstats']]);
      expect(raw.outputs[0]!.text).toMatch(/^Pool Name\s+Active/m);
    } finally {
      await conn.close();
    }
    const cli = await execa(process.execPath, [BUNDLE, 'snapshot', '--lab', '--json'], {
      env: { ...process.env, CQL_TUNER_HOME: home },
      reject: false,
      timeout: 120_000,
    });
    expect(cli.exitCode, cli.stderr.slice(-1000)).toBe(0);
    const view = JSON.parse(cli.stdout) as { nodeCount: number; reachableCount: number; versions: string[] };
    expect([view.nodeCount, view.reachableCount]).toEqual([3, 3]);
    expect(view.versions).toEqual([expect.stringMatching(/^5\.0\./)]);
  }, 300_000);

  it('CQL-only mode touches no nodetool', async () => {
    const s = await takeSnapshot({ lab: true, nodetool: false });
    expect(s.nodes.flatMap((n) => n.sources).filter((x) => x.via === 'nodetool')).toEqual([]);
    expect(s.nodes.every((n) => n.reachable)).toBe(true);
  }, 60_000);

  it('an incremental repair shows in diagnose from tablestats; a table just repaired with --full does not (kb:repair.percent-repaired)', async () => {
    const argv = (await labNodetoolArgv('5.0'))!;
    const nodes = (await labStatus()).nodes;
    const nt = (jmxPort: number, ...args: string[]) => execa(argv[0]!, [...argv.slice(1), '-h', '127.0.0.1', '-p', String(jmxPort), ...args]);
    const client = new cassandra.Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1' });
    await client.connect();
    await client.execute('CREATE TABLE IF NOT EXISTS snap_ks.audit (id int PRIMARY KEY, v text)');
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.execute('INSERT INTO snap_ks.audit (id, v) VALUES (?, ?)', [i, 'y'.repeat(100)], { prepare: true })),
    );
    await client.shutdown();
    for (const n of nodes) await nt(n.jmxPort, 'flush', 'snap_ks');
    const first = nodes[0]!.jmxPort;
    expect((await nt(first, 'repair', 'snap_ks', 'events')).stdout).toMatch(/incremental: true[\s\S]*Repair completed successfully/);
    expect((await nt(first, 'repair', '--full', 'snap_ks', 'audit')).stdout).toMatch(/incremental: false[\s\S]*Repair completed successfully/);
    const r = await diagnose({ lab: true });
    const f = r.findings.find((x) => x.id === 'repair.incremental-state');
    expect(f, r.findings.map((x) => x.id).join(', ')).toBeDefined();
    expect(f!.evidence[0]).toMatch(/^snap_ks\.events: 100 % repaired on 3 node\(s\), 0 B unrepaired across them$/);
    expect(f!.evidence.join('\n')).not.toMatch(/snap_ks\.audit/);
  }, 180_000);

  it('a node killed mid-sweep is marked unreachable and the others are complete, within the timeout', async () => {
    const status = await labStatus();
    const victim = status.nodes.find((n) => n.index === 3)!;
    const nodeTimeoutMs = 15_000;
    const t0 = Date.now();
    // One node at a time, so "mid-sweep" is exact: node 1 is done, node 3 not yet started.
    const s = await takeSnapshot(
      { lab: true, nodeTimeoutMs, concurrency: 1 },
      {
        onProgress: (e) => {
          if (e.message === 'collected 127.0.0.1') process.kill(victim.pid!, 'SIGKILL');
        },
      },
    );
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeLessThan(nodeTimeoutMs + 10_000);
    const dead = s.nodes.find((n) => n.address === '127.0.0.3');
    const alive = s.nodes.filter((n) => n.address !== '127.0.0.3');
    expect(alive).toHaveLength(2);
    for (const n of alive) {
      expect(n.status).toBe('complete');
      expect(n.sources.filter((x) => !x.ok)).toEqual([]);
      expect(n.facts.threadPools?.length).toBeGreaterThan(10);
    }
    expect(dead).toBeDefined();
    expect(dead!.status).toBe('unreachable');
    expect(dead!.reachable).toBe(false);
    expect(dead!.sources.every((x) => !x.ok && x.error?.message)).toBe(true);
  }, 120_000);

  it('diagnose names the killed node as a critical finding, with evidence', async () => {
    const r = await diagnose({ lab: true, nodeTimeoutMs: 15_000 });
    const about3 = r.findings.filter((f) => f.node === '127.0.0.3' && f.severity === 'critical');
    expect(about3.map((f) => f.id)).toEqual(expect.arrayContaining([expect.stringMatching(/^topology\.(unreachable|node-down)$/)]));
    expect(about3[0]!.evidence.length).toBeGreaterThan(0);
    expect(r.findings[0]!.severity).toBe('critical');
  }, 120_000);
});
