import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import type { ProgressEvent } from '../../mcp-server/src/ops/progress.js';
import { LabError, SUPPORTED_LAB_VERSIONS, labNodetoolArgv, labPaths, labStatus, startLab, stopLab } from '../../mcp-server/src/lab/index.js';

// Real Cassandra from Maven Central jars on 127.0.0.1. The state dir is a temp dir; the jar cache is the
// default one, so the jars are resolved once per machine. Set CQL_TUNER_SKIP_LAB=1 where no Java/Maven exists.
const LONG = 300_000;

async function runNodetool(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number | undefined }> {
  const prefix = await labNodetoolArgv();
  if (!prefix) throw new Error('labNodetoolArgv() returned null while a lab is running');
  const [file, ...rest] = prefix;
  if (!file) throw new Error('empty argv');
  const r = await execa(file, [...rest, ...args], { reject: false, timeout: 60_000 });
  return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode };
}

/** PIDs of live processes whose command line carries a node dir under `home` (the lab's marker). */
async function javaPidsUnder(home: string): Promise<number[]> {
  const pids: number[] = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const cmd = await readFile(`/proc/${d}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
    const zombie = / Z /.test(stat.slice(stat.lastIndexOf(')')));
    if (!zombie && cmd.includes(`-Dcql_tuner.lab_node_dir=${home}`)) pids.push(Number(d));
  }
  return pids;
}

/** The node's real system.log and gc.log are read as Cassandra logs: no false events on a fresh node. */
async function expectLabLogsRead(systemLog: string): Promise<void> {
  const r = parseLogs(await readFile(systemLog, 'utf8'), { source: systemLog });
  expect(r.ok).toBe(true);
  if (!r.ok) return;
  const v = r.value;
  expect(v.source.kind).toBe('cassandra.system');
  expect(v.lines.headed).toBeGreaterThan(50);
  expect(v.lines.unrecognised).toBeLessThan(v.lines.total * 0.05);
  // a fresh node logs its config dump and JVM flags (-XX:+ExitOnOutOfMemoryError): none of it is an event
  expect(v.events.oom.count).toBe(0);
  expect(v.events.hintFailure.count).toBe(0);
  expect(v.events.repairFailure.count).toBe(0);
  const g = parseLogs(await readFile(join(systemLog, '../gc.log'), 'utf8'), { source: 'gc.log' });
  expect(g.ok).toBe(true);
  if (!g.ok) return;
  expect(g.value.source).toMatchObject({ kind: 'gc.log', gcLogFormat: 'unified' });
  expect(g.value.gc.gcLogCollector ?? 'G1').toMatch(/G1/);
  expect(g.value.safepoint.count).toBeGreaterThan(0);
}

async function caught(p: Promise<unknown>): Promise<LabError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LabError);
  return e as LabError;
}

describe.skipIf(process.env.CQL_TUNER_SKIP_LAB === '1')('lab (real Cassandra)', () => {
  let home: string;
  const oldHome = process.env.CQL_TUNER_HOME;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'cql-tuner-lab-it-'));
    process.env.CQL_TUNER_HOME = home;
  });

  afterAll(async () => {
    // Whatever happened above, never leave a java behind.
    await stopLab({ wipe: true, timeoutMs: 20_000 }).catch(() => {});
    const left = await javaPidsUnder(home);
    for (const pid of left) process.kill(pid, 'SIGKILL'); // only ours: matched by this test's temp dir
    expect(left).toEqual([]);
    if (oldHome === undefined) delete process.env.CQL_TUNER_HOME;
    else process.env.CQL_TUNER_HOME = oldHome;
    await rm(home, { recursive: true, force: true });
  }, LONG);

  it('refuses an unsupported version, listing the supported ones', async () => {
    const e = await caught(startLab({ nodes: 1, version: '3.0' }));
    expect(e.code).toBe('UNSUPPORTED_VERSION');
    expect(e.message).toContain("'3.0'");
    expect(e.message).toContain('5.0 (5.0.9)');
    expect(e.message).toContain('4.1 (4.1.10)');
    expect(e.fix).toBeTruthy();
  });

  it('refuses a bad heap before starting anything', async () => {
    const e = await caught(startLab({ nodes: 1, version: '5.0', heap: '12' }));
    expect(e.code).toBe('BAD_HEAP');
  });

  it(
    'starts a 1-node 5.0 lab, reports it, runs nodetool against it and stops it by PID',
    async () => {
      const events: ProgressEvent[] = [];
      const state = await startLab({ nodes: 1, version: '5.0', onProgress: (e) => events.push(e) });
      expect(state.stateDir).toBe(join(home, 'lab'));
      expect(labPaths().stateDir).toBe(join(home, 'lab'));
      expect(state.fullVersion).toBe(SUPPORTED_LAB_VERSIONS['5.0']);
      expect(state.heap).toBe('512M');
      expect(state.nodes).toHaveLength(1);
      const node = state.nodes[0];
      if (!node) throw new Error('no node');
      expect(node).toMatchObject({ index: 1, host: '127.0.0.1', cqlPort: 9042, jmxPort: 7199 });
      expect(node.pid).toBeTypeOf('number');
      const pid = node.pid as number;
      expect(existsSync(node.logFile)).toBe(true);
      expect(events.some((e) => e.message.includes('Starting node 1/1'))).toBe(true);
      expect(events.some((e) => e.message.includes('answers CQL'))).toBe(true);

      const st = await labStatus();
      expect(st.running).toBe(true);
      expect(st.nodes[0]).toMatchObject({ alive: true, cqlUp: true, pid });

      const again = await caught(startLab({ nodes: 1, version: '5.0' }));
      expect(again.code).toBe('ALREADY_RUNNING');
      expect(again.message).toContain(String(pid));

      const v = await runNodetool(['-h', '127.0.0.1', '-p', '7199', 'version']);
      expect(v.exitCode, v.stderr).toBe(0);
      expect(v.stdout).toContain('ReleaseVersion: 5.0.9');

      const stopEvents: ProgressEvent[] = [];
      const stopped = await stopLab({ onProgress: (e) => stopEvents.push(e) });
      expect(stopped.stopped).toEqual([pid]);
      expect(stopped.keptData).toBe(join(home, 'lab'));
      expect(existsSync(`/proc/${pid}`)).toBe(false);
      expect(stopEvents.some((e) => e.message.includes('data kept'))).toBe(true);
      await expectLabLogsRead(node.logFile);

      const after = await labStatus();
      expect(after).toEqual({ running: false, state: null, nodes: [] });
      // Stopping again is a no-op, not an error.
      expect((await stopLab()).stopped).toEqual([]);
    },
    LONG,
  );

  it(
    'stops the nodes it started when the start is cancelled',
    async () => {
      const ac = new AbortController();
      let seenPids: number[] = [];
      const e = await caught(
        startLab({
          nodes: 1,
          version: '5.0',
          signal: ac.signal,
          onProgress: (ev) => {
            // Cancel once the daemon is spawned and we are waiting for CQL.
            if (ev.message.startsWith('Waiting for CQL') && !ac.signal.aborted) {
              void javaPidsUnder(home).then((p) => {
                seenPids = p;
                ac.abort();
              });
            }
          },
        }),
      );
      expect(e.code).toBe('ABORTED');
      expect(seenPids).toHaveLength(1);
      for (const pid of seenPids) expect(existsSync(`/proc/${pid}`)).toBe(false);
      expect(await javaPidsUnder(home)).toEqual([]);
      expect((await labStatus()).state).toBeNull(); // lab.json removed
      expect((await labStatus()).running).toBe(false);
    },
    LONG,
  );

  it(
    'starts a 1-node 4.1 lab (wiping the 5.0 data) and stops it with wipe',
    async () => {
      const events: ProgressEvent[] = [];
      const state = await startLab({ nodes: 1, version: '4.1', heap: '512m', onProgress: (e) => events.push(e) });
      expect(state.fullVersion).toBe('4.1.10');
      expect(events.some((e) => e.message.includes('Wiping data'))).toBe(true);
      const pid = state.nodes[0]?.pid as number;
      const v = await runNodetool(['-h', '127.0.0.1', '-p', '7199', 'version']);
      expect(v.stdout).toContain('ReleaseVersion: 4.1.10');
      const stopped = await stopLab({ wipe: true });
      expect(stopped).toEqual({ stopped: [pid], keptData: null });
      expect(existsSync(`/proc/${pid}`)).toBe(false);
      expect(existsSync(join(home, 'lab', 'node1'))).toBe(false);
    },
    LONG,
  );
});
