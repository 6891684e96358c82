/**
 * Fault scenarios on one real 3-node Cassandra 5.0 lab (127.0.0.1–3), started once: a JMX port that never
 * answers for one node of a snapshot and a diagnosis, a nodetool that prints garbage under a diagnosis, a full
 * runs folder and a full bundle folder (tmpfs), and — last, as they break the cluster — one node SIGKILLed in
 * the middle of a latte run, then a table directory of another node that fills (tmpfs) while it flushes, whose log
 * `cql-tuner logs` must read as a full disk. Each ends within its timeout with a partial result and a precise
 * error, keeps what was collected, and leaves no process behind (/proc).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import cassandra from 'cassandra-driver';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODETOOL_BATCH_CLASS } from '../../mcp-server/src/collect/nodetool-batch-source.js';
import { readStatus } from '../../mcp-server/src/collect/stress-runner.js';
import { labNodetoolArgv, labStatus } from '../../mcp-server/src/lab/index.js';
import { analyzeLogFiles } from '../../mcp-server/src/ops/analyze-logs.js';
import { diagnose } from '../../mcp-server/src/ops/diagnose.js';
import { takeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { startStress, stressStatus, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { liveDescendants, liveMatching, settled } from './procs.js';
import { tempLabHome } from '../helpers/lab-home.js';
import { latteOrSkipNote } from '../helpers/stress-tool.js';

const lab = tempLabHome('cql-tuner-faults-lab-');
const { home } = lab;
const skipLab = process.env.CQL_TUNER_SKIP_LAB === '1';
const haveLatte = (await latteOrSkipNote('lab fault scenarios')) !== null;
const skip = skipLab || !haveLatte;

const full = join(home, 'full');
let mounted = false;
/** The table directory the disk-full scenario mounts a small tmpfs over (unmounted once the lab is stopped). */
let tableMount: string | null = null;
let labPids: number[] = [];
let jmxPorts: Record<string, number> = {};
let silent: Server;
let silentPort = 0;
const held: Socket[] = [];
const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 3, version: '5.0' });
  const st = await labStatus();
  labPids = st.nodes.map((n) => n.pid!).filter((p) => p);
  jmxPorts = Object.fromEntries(st.nodes.map((n) => [n.host, n.jmxPort]));
  silent = createServer((s) => {
    held.push(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentPort = (silent.address() as { port: number }).port;
  // A small file system to fill up: the runs folder and the bundle folder of the disk-full scenarios.
  mkdirSync(full);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', full]);
  mounted = true;
}, 400_000);

afterAll(async () => {
  if (skip) return;
  for (const s of held) s.destroy();
  await new Promise<void>((r) => (silent ? silent.close(() => r()) : r()));
  await lab.stop({
    afterStop: () => {
      if (mounted) execFileSync('umount', [full]);
      if (tableMount) execFileSync('umount', ['-l', tableMount]);
    },
  });
}, 180_000);

const leftovers = () => liveDescendants(labPids);

/** Fills the tmpfs to the last block. */
function fill(): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${join(full, `filler-${Date.now()}`)}`, 'bs=4k'], { stdio: 'ignore' });
  } catch {
    /* dd ends with ENOSPC: that is the point */
  }
}
const emptyFull = () => {
  for (const f of readdirSync(full)) rmSync(join(full, f), { recursive: true, force: true });
};

describe.skipIf(skip)('faults on a real 3-node lab', () => {
  it('one JMX port that never answers: that node times out naming host:port, the other two are complete', async () => {
    const ports = { ...jmxPorts, '127.0.0.2': silentPort };
    const nodeTimeoutMs = 15_000;
    const t0 = Date.now();
    const s = await takeSnapshot({ hosts: ['127.0.0.1'], jmxHost: '127.0.0.1', jmxPorts: ports, nodeTimeoutMs });
    expect(Date.now() - t0).toBeLessThan(nodeTimeoutMs + 10_000);
    expect(held.length).toBeGreaterThan(0);
    const hung = s.nodes.find((n) => n.address === '127.0.0.2')!;
    expect(hung.status).toBe('partial');
    expect(hung.reachable).toBe(true);
    // What CQL gave is kept; every nodetool source names the silent endpoint.
    expect(hung.sources.filter((x) => x.via === 'cql').every((x) => x.ok)).toBe(true);
    expect(hung.facts.threadPools?.length).toBeGreaterThan(10);
    const nt = hung.sources.filter((x) => x.via === 'nodetool');
    expect(nt.length).toBeGreaterThan(0);
    for (const x of nt) expect(x.error).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining(`127.0.0.1:${silentPort}`) });
    for (const n of s.nodes.filter((x) => x.address !== '127.0.0.2')) {
      expect({ node: n.address, status: n.status, failed: n.sources.filter((x) => !x.ok) }).toEqual({ node: n.address, status: 'complete', failed: [] });
    }
    expect(await settled(() => liveMatching(NODETOOL_BATCH_CLASS))).toEqual([]);
    expect(await settled(leftovers)).toEqual([]);
  }, 60_000);

  it('diagnose with that JMX port: ends in time, the node is partial, the report is returned', async () => {
    const t0 = Date.now();
    const r = await diagnose({ hosts: ['127.0.0.1'], jmxHost: '127.0.0.1', jmxPorts: { ...jmxPorts, '127.0.0.2': silentPort }, nodeTimeoutMs: 15_000 });
    expect(Date.now() - t0).toBeLessThan(15_000 + 20_000);
    expect(r.nodes.map((n) => [n.address, n.status])).toEqual([
      ['127.0.0.1', 'complete'],
      ['127.0.0.2', 'partial'],
      ['127.0.0.3', 'complete'],
    ]);
    expect(r.checked.length).toBeGreaterThan(5);
    expect(await settled(leftovers)).toEqual([]);
  }, 90_000);

  it('a nodetool printing garbage: diagnose marks the nodetool facts missing in its checked list instead of crashing', async () => {
    const dir = mkdtempSync(join(home, 'garbage-'));
    const path = join(dir, 'nodetool');
    writeFileSync(path, '#!/bin/sh\nhead -c 3000 /dev/urandom\nexit 0\n');
    chmodSync(path, 0o755);
    const r = await diagnose({ hosts: ['127.0.0.1'], jmxHost: '127.0.0.1', jmxPorts, nodetoolPath: path, nodeTimeoutMs: 15_000 });
    expect(r.nodes.length).toBe(3);
    const unchecked = r.checked.filter((c) => !c.checked);
    expect(unchecked.length).toBeGreaterThan(0);
    expect(unchecked.every((c) => typeof c.skippedBecause === 'string' && c.skippedBecause.length > 0)).toBe(true);
    // Nothing crashed: no rule reports an internal error.
    expect(r.checked.filter((c) => /rule error/.test(c.skippedBecause ?? ''))).toEqual([]);
    // …and the reason names the unreadable output rather than blaming JMX.
    expect(unchecked.find((c) => c.rule === 'jvm')?.skippedBecause).toMatch(/nodetool:(info|gcstats) output not readable/);
    process.stdout.write(`garbage nodetool, unchecked: ${unchecked.map((c) => `${c.rule} (${c.skippedBecause})`).join('; ')}\n`);
  }, 90_000);

  it('a full runs folder before the start: DISK_FULL, no run folder left, no process', async () => {
    emptyFull();
    fill();
    const env = { ...process.env, CQL_TUNER_HOME: join(full, 'home') };
    await expect(
      startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], durationS: 3, concurrency: 4, snapshots: 'none' }, { env }),
    ).rejects.toMatchObject({ code: 'DISK_FULL', message: expect.stringMatching(/no space left/) });
    const runs = join(full, 'home', 'runs');
    expect(existsSync(runs) ? readdirSync(runs).filter((n) => !n.startsWith('.')) : []).toEqual([]);
    expect(await settled(leftovers)).toEqual([]);
  }, 30_000);

  it('the runs folder fills up during the run: the run fails cleanly saying the disk is full, no process left', async () => {
    emptyFull();
    const env = { ...process.env, CQL_TUNER_HOME: join(full, 'home') };
    const s = await startStress(
      {
        tool: 'latte',
        workload: 'write',
        nodes: ['127.0.0.1'],
        durationS: 5,
        concurrency: 4,
        replicationFactor: 1,
        keyspace: 'faults_full',
        snapshots: 'none',
      },
      { env },
    );
    fill();
    const t0 = Date.now();
    const r = await waitForRun(s.id);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(r.state).toBe('failed');
    const st = await stressStatus(s.id, env);
    expect(st.state).toBe('failed');
    expect(`${st.error} ${r.warnings.join(' ')}`).toMatch(/no space left|ENOSPC|is full/);
    // Nothing that looks like a good result: no result.json claiming success, no parsed facts.
    const result = st.result;
    expect(result === null || result.state === 'failed').toBe(true);
    expect((await readStatus(s.id, env))?.state).toBe('failed');
    expect(await settled(() => liveMatching(s.dir))).toEqual([]);
    expect(await settled(leftovers)).toEqual([]);
  }, 90_000);

  it('a snapshot bundle into a full file system: DISK_FULL naming the folder, no partial bundle left, the snapshot kept', async () => {
    emptyFull();
    fill();
    const bundleDir = join(full, 'bundle');
    // What was collected is not thrown away: the snapshot comes back complete, with the bundle's error.
    const s = await takeSnapshot({ lab: true, nodetool: false, bundleDir });
    expect(s.bundleError).toMatchObject({ code: 'DISK_FULL', message: expect.stringContaining(bundleDir) });
    expect(s.bundleDir).toBeUndefined();
    expect(s.nodes.map((n) => n.status)).toEqual(['complete', 'complete', 'complete']);
    expect(s.nodes.every((n) => (n.facts.threadPools?.length ?? 0) > 0)).toBe(true);
    expect(readdirSync(full).filter((n) => n.startsWith('bundle'))).toEqual([]);
    expect(await settled(leftovers)).toEqual([]);
    emptyFull();
  }, 60_000);

  it('one of three nodes SIGKILLed mid-run (CL ALL): the run ends with errors counted, its folder intact, the after-snapshot marks the node unreachable', async () => {
    const s = await startStress({
      tool: 'latte',
      workload: 'write',
      nodes: HOSTS,
      durationS: 16,
      concurrency: 16,
      // ALL on RF 3: every write after the kill needs the dead replica, so the loss must show as errors.
      consistency: 'ALL',
      replicationFactor: 3,
      keyspace: 'faults_kill',
      snapshots: 'lab',
    });
    const victim = (await labStatus()).nodes.find((n) => n.index === 3)!;
    // Kill once the measured step has produced intervals.
    const until = Date.now() + 90_000;
    for (;;) {
      const st = await stressStatus(s.id);
      if (st.step === 'run' && st.intervals >= 2) break;
      if (st.state !== 'running' && st.state !== 'starting') throw new Error(`run ended before the kill: ${st.state} ${st.error}`);
      if (Date.now() > until) throw new Error('run never reached its measured step');
      await new Promise((r) => setTimeout(r, 250));
    }
    process.kill(victim.pid!, 'SIGKILL');
    const t0 = Date.now();
    const r = await waitForRun(s.id);
    expect(Date.now() - t0).toBeLessThan(120_000);
    const st = await stressStatus(s.id);
    expect(['finished', 'failed']).toContain(r.state);
    // What was measured before and after the kill is kept and parsed.
    expect(r.facts).not.toBeNull();
    expect(r.facts!.intervals.length).toBeGreaterThan(2);
    expect(existsSync(join(s.dir, 'run.out.txt'))).toBe(true);
    expect(existsSync(join(s.dir, 'result.json'))).toBe(true);
    expect((JSON.parse(readFileSync(join(s.dir, 'result.json'), 'utf8')) as { state: unknown }).state).toBe(r.state);
    // The loss shows in what latte counted: errors, or (latte retries timed-out writes by default) retries,
    // and in the intervals: throughput collapses after the kill while the dead replica is still awaited.
    const report = JSON.parse(readFileSync(join(s.dir, 'latte.json'), 'utf8')) as { result?: Record<string, unknown> } & Record<string, unknown>;
    const counted = (k: string) => Number((report.result ?? report)[k] ?? 0);
    const errors = r.facts!.errors ?? 0;
    const retries = counted('request_retry_count');
    expect(errors + retries).toBeGreaterThan(0);
    const rates = r.facts!.intervals.map((i) => i.opRate ?? 0);
    const peak = Math.max(...rates);
    expect(peak).toBeGreaterThan(0);
    expect(rates.some((x) => x < peak * 0.1)).toBe(true);
    // …and the run's own findings say so: a stall, with the retries latte made through it.
    const stallFinding = r.findings.find((f) => f.id === 'stress.stall');
    expect(stallFinding?.severity).toBe('warning');
    if (retries > 0) expect(stallFinding!.evidence.join('\n')).toContain(`retries: ${retries}`);
    const after = JSON.parse(readFileSync(join(s.dir, 'snapshot-after.json'), 'utf8')) as { nodes: { address: string; status: string; reachable: boolean }[] };
    const before = JSON.parse(readFileSync(join(s.dir, 'snapshot-before.json'), 'utf8')) as { nodes: { address: string; status: string }[] };
    expect(before.nodes.map((n) => n.status)).toEqual(['complete', 'complete', 'complete']);
    expect(after.nodes.find((n) => n.address === '127.0.0.3')).toMatchObject({ status: 'unreachable', reachable: false });
    expect(after.nodes.filter((n) => n.address !== '127.0.0.3').every((n) => n.reachable)).toBe(true);
    process.stdout.write(
      `node kill: state ${r.state}, errors ${errors}, retries ${retries}, op/s per interval ${rates.map((x) => Math.round(x)).join(' ')}, error ${st.error}\n`,
    );
    expect(await settled(() => liveMatching(s.dir))).toEqual([]);
    expect(await settled(leftovers)).toEqual([]);
  }, 180_000);

  it('a table directory that fills while node 1 flushes: its system.log says so and `cql-tuner logs` reports log.disk-full, critical', async () => {
    const node1 = (await labStatus()).nodes.find((n) => n.index === 1)!;
    const client = new cassandra.Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1', socketOptions: { readTimeout: 30_000 } });
    await client.connect();
    try {
      // RF 3 on 3 nodes: node 1 holds every row; node 3 is dead since the previous scenario, CL ONE still writes
      await client.execute("CREATE KEYSPACE faults_disk WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
      await client.execute('CREATE TABLE faults_disk.t (k int PRIMARY KEY, v text)');
      const ksDir = join(dirname(dirname(node1.logFile)), 'data', 'faults_disk');
      const tableDir = join(
        ksDir,
        readdirSync(ksDir).find((d) => d.startsWith('t-'))!,
      );
      // 256 KiB of room for about 2 MiB of rows that do not compress (random): the flush's SSTable writes run out of space
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', tableDir]);
      tableMount = tableDir;
      const v = () => randomBytes(768).toString('base64');
      for (let i = 0; i < 2000; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            client.execute('INSERT INTO faults_disk.t (k, v) VALUES (?, ?)', [i + j, v()], { prepare: true, consistency: cassandra.types.consistencies.one }),
          ),
        );
      }
    } finally {
      await client.shutdown();
    }
    const argv = (await labNodetoolArgv('5.0'))!;
    // the flush fails inside the node; nodetool may report it or wait on it: only the log is judged
    await execa(argv[0]!, [...argv.slice(1), '-h', '127.0.0.1', '-p', String(jmxPorts['127.0.0.1']), 'flush', 'faults_disk', 't'], {
      timeout: 30_000,
      reject: false,
    });
    let report = await analyzeLogFiles([node1.logFile], { node: '127.0.0.1' });
    for (const until = Date.now() + 20_000; !report.facts.diskFull.count && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 500));
      report = await analyzeLogFiles([node1.logFile], { node: '127.0.0.1' });
    }
    const f = report.findings.find((x) => x.id === 'log.disk-full');
    process.stdout.write(`disk full: ${JSON.stringify(report.facts.diskFull)}; ${f?.title}; ${f?.evidence[1] ?? ''}\n`);
    if (!f) {
      const tail = readFileSync(node1.logFile, 'utf8').split('\n').slice(-40).join('\n');
      process.stdout.write(`node 1 system.log, last lines:\n${tail}\n${execFileSync('df', ['-k', tableMount]).toString()}\n`);
    }
    expect(report.facts.diskFull.byKind.find((k) => k.kind === 'enospc')?.count).toBeGreaterThanOrEqual(1);
    expect(f).toMatchObject({ severity: 'critical', node: '127.0.0.1', knowledgeIds: ['logs.disk-full'] });
    expect(f!.evidence.join('\n')).toContain('No space left on device');
  }, 120_000);
});
