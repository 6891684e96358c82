/**
 * Fault scenarios on one real 3-node Cassandra 5.0 lab (127.0.0.1–3), started once: a JMX port that never
 * answers for one node of a snapshot and a diagnosis, a nodetool that prints garbage under a diagnosis, a full
 * runs folder and a full bundle folder (tmpfs), and — last, as it breaks the cluster — one node SIGKILLed in
 * the middle of a latte run. Each ends within its timeout with a partial result and a precise error, keeps
 * what was collected, and leaves no process behind (/proc).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODETOOL_BATCH_CLASS } from '../../mcp-server/src/collect/nodetool-batch-source.js';
import { readStatus } from '../../mcp-server/src/collect/stress-runner.js';
import { labStatus } from '../../mcp-server/src/lab/index.js';
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
});
