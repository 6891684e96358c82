/**
 * Class 8 (issue #13): stress_cancel killed whatever process group had the pid stored in status.json. A run
 * whose owner died leaves its pid behind; once the pid is reused, cancelling the run ended an unrelated
 * program. The cancel must check the process is still the one recorded at spawn (start time from
 * /proc/<pid>/stat field 22 and /proc/<pid>/cmdline) and otherwise signal nothing and mark the run stale.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { procIdentitySync, runDir, type RunStatusFile } from '../../mcp-server/src/collect/stress-runner.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { startStress, stressCancel, stressStatus, waitForRun } from '../../mcp-server/src/ops/stress.js';
import { record } from './stats.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec8-'));
const env = { CQL_TUNER_HOME: join(tmp, 'home'), PATH: '' };
const started: ChildProcess[] = [];
afterAll(() => {
  // Only the processes this file started, by their own pid.
  for (const c of started) if (c.pid !== undefined && alive(c.pid)) process.kill(c.pid, 'SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
  })();
  if (stat === null) return false;
  const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
  return state !== 'Z' && state !== 'X';
}

/** An unrelated long-lived process in a process group of its own (as a reused pid would be). */
function unrelated(): number {
  const c = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  c.unref();
  started.push(c);
  return c.pid!;
}

/** A pid that belonged to a process that has exited. */
const deadPid = (): number => spawnSync('true', { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } }).pid;

let seq = 0;
/** A run folder as a runner in another (now dead) process would have left it. */
function leftRun(patch: Partial<RunStatusFile>): string {
  const id = `20260101-000000-cassandra-stress-sec8${String(++seq).padStart(2, '0')}`;
  const dir = runDir(id, env);
  mkdirSync(dir, { recursive: true });
  const status: RunStatusFile = {
    id,
    tool: 'cassandra-stress',
    binary: '/opt/cassandra/tools/bin/cassandra-stress',
    target: '127.0.0.1_9042',
    state: 'running',
    step: 'run',
    pid: null,
    ownerPid: deadPid(),
    ownerIdentity: { startTime: '12345', cmdline: ['node', '/opt/cql-tuner/mcp-server/dist/cql-tuner.js', 'mcp'] },
    startedAt: new Date().toISOString(),
    runStartedAt: new Date().toISOString(),
    endedAt: null,
    plannedS: 60,
    capS: 600,
    exitCode: null,
    error: null,
    ...patch,
  };
  writeFileSync(join(dir, 'status.json'), JSON.stringify(status));
  return id;
}
const statusOf = (id: string) => JSON.parse(readFileSync(join(runDir(id, env), 'status.json'), 'utf8')) as RunStatusFile;

describe("class 8: stress_cancel signals only the run's own process", () => {
  it('a stored pid now held by an unrelated process is not signalled; the run is reported stale', async () => {
    const cases: { what: string; patch: (pid: number) => Partial<RunStatusFile> }[] = [
      {
        what: 'pid reused (other start time and command line)',
        patch: (pid) => ({ pid, pidIdentity: { startTime: '1', cmdline: ['/opt/cassandra/tools/bin/cassandra-stress', 'write', 'n=10'] } }),
      },
      { what: 'same command line, other start time', patch: (pid) => ({ pid, pidIdentity: { startTime: '1', cmdline: ['sleep', '300'] } }) },
      { what: 'status.json without a recorded identity', patch: (pid) => ({ pid }) },
      { what: 'owner pid reused too', patch: (pid) => ({ pid, ownerPid: pid, pidIdentity: { startTime: '1', cmdline: ['x'] } }) },
    ];
    const unsafe: string[] = [];
    for (const c of cases) {
      const victim = unrelated();
      await new Promise((r) => setTimeout(r, 50));
      expect(alive(victim)).toBe(true);
      const id = leftRun(c.patch(victim));
      const res = await stressCancel(id, env);
      await new Promise((r) => setTimeout(r, 200));
      if (!alive(victim)) unsafe.push(`${c.what}: the unrelated process ${victim} was killed`);
      if (res.state !== 'stale' || !res.stale) unsafe.push(`${c.what}: reported ${JSON.stringify(res)}`);
      const st = statusOf(id);
      if (st.state !== 'stale' || st.pid !== null || !st.endedAt) unsafe.push(`${c.what}: status.json left as ${st.state}, pid ${st.pid}`);
      const shown = (await stressStatus(id, env)).state;
      if (shown !== 'stale') unsafe.push(`${c.what}: stress_status says ${shown}`);
    }
    // Through the MCP tool as well (it reads CQL_TUNER_HOME from the server's environment).
    const victim = unrelated();
    const id = leftRun({ pid: victim, pidIdentity: { startTime: '1', cmdline: ['/opt/cassandra/tools/bin/cassandra-stress'] } });
    const saved = process.env['CQL_TUNER_HOME'];
    process.env['CQL_TUNER_HOME'] = env.CQL_TUNER_HOME;
    try {
      const server = createServer();
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const client = new Client({ name: 'security-8', version: '0' });
      await client.connect(b);
      const res = await client.callTool({ name: 'stress_cancel', arguments: { id } });
      const text = ((res.content as { text?: string }[]) ?? []).map((x) => x.text ?? '').join('\n');
      if (!/stale/.test(text) || !/Nothing was signalled/.test(text)) unsafe.push(`MCP stress_cancel said: ${text}`);
      await client.close();
    } finally {
      if (saved === undefined) delete process.env['CQL_TUNER_HOME'];
      else process.env['CQL_TUNER_HOME'] = saved;
    }
    await new Promise((r) => setTimeout(r, 200));
    if (!alive(victim)) unsafe.push(`MCP stress_cancel killed the unrelated process ${victim}`);
    record({ section: 'attack', cls: '8 stress_cancel pid reuse', tried: cases.length + 1, unsafe: unsafe.length });
    expect(unsafe).toEqual([]);
  }, 30_000);

  it('the recorded process itself (same start time and command line) is still ended, from a process that did not start it', async () => {
    const c = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    c.unref();
    started.push(c);
    const identity = procIdentitySync(c.pid!);
    expect(identity?.cmdline).toEqual(['sleep', '300']);
    const id = leftRun({ pid: c.pid!, pidIdentity: identity });
    const res = await stressCancel(id, env);
    expect(res.state).toBe('cancelled');
    expect(res.stale).toBeUndefined();
    expect(res.leftover).toEqual([]);
    expect(alive(c.pid!)).toBe(false);
  });

  it('a real run started by the runner records its step identity and is cancelled for real', async () => {
    const dir = join(tmp, 'bin');
    mkdirSync(dir, { recursive: true });
    const bin = join(dir, 'cassandra-stress');
    const pidFile = join(dir, 'step.pid');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetTimeout(() => {}, 60000);\n`;
    writeFileSync(bin, `#!${process.execPath}\n${script}`);
    chmodSync(bin, 0o755);
    const run = await startStress({ tool: 'cassandra-stress', workload: 'write', nodes: ['127.0.0.1'], n: 10, binary: bin, snapshots: 'none' }, { env });
    // up to 20 s: on a loaded 2-core host (the hermetic lane runs files in parallel) 5 s was once not enough
    for (let i = 0; i < 400 && !(existsSync(pidFile) && statusOf(run.id).pidIdentity); i++) await new Promise((r) => setTimeout(r, 50));
    const stepPid = Number(readFileSync(pidFile, 'utf8'));
    const st = statusOf(run.id);
    expect(st.pid).toBe(stepPid);
    expect(st.pidIdentity).toEqual(procIdentitySync(stepPid));
    expect(st.pidIdentity!.cmdline).toEqual([process.execPath, bin, 'write', 'n=10', 'cl=LOCAL_ONE', ...st.pidIdentity!.cmdline.slice(5)]);
    expect(st.ownerIdentity).toEqual(procIdentitySync(process.pid));
    const res = await stressCancel(run.id, env);
    expect(res).toMatchObject({ state: 'cancelled', leftover: [], wasRunning: true });
    expect((await waitForRun(run.id)).state).toBe('cancelled');
    expect(alive(stepPid)).toBe(false);
  }, 60_000);
});
