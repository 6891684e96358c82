import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeCommandLine, restartRefusal } from '../../mcp-server/src/lab/incidents/node-restart.js';
import { DAEMON_CLASS, labMarkerFlag } from '../../mcp-server/src/lab/jvm-flags.js';
import { writeLabState } from '../../mcp-server/src/lab/state.js';
import type { LabNode, LabState } from '../../mcp-server/src/lab/types.js';

const linux = process.platform === 'linux';

describe('restartRefusal: only the daemon lab.json records is copied for a restart', () => {
  const argv = ['/opt/jdk/bin/java', labMarkerFlag('/lab/node2'), '-Xmx512M', DAEMON_CLASS];
  const ok = { argv, nodeDir: '/lab/node2', pid: 4242, recordedPid: 4242, ownerUid: 0, selfUid: 0 };

  it('accepts the recorded pid of this user running the node’s daemon', () => {
    expect(restartRefusal(ok)).toBeNull();
  });

  it('refuses a process carrying the marker whose pid lab.json does not record', () => {
    expect(restartRefusal({ ...ok, recordedPid: 4100 })).toMatch(/not the pid lab.json records/);
    expect(restartRefusal({ ...ok, recordedPid: null })).toMatch(/not the pid lab.json records/);
  });

  it('refuses another user’s process and a marker on something that is not CassandraDaemon', () => {
    expect(restartRefusal({ ...ok, ownerUid: 1001 })).toMatch(/uid 1001/);
    expect(restartRefusal({ ...ok, argv: [...argv.slice(0, -1), 'evil.Main'] })).toMatch(/not that node's Cassandra daemon/);
    expect(restartRefusal({ ...ok, argv: null })).toMatch(/not running/);
  });
});

describe.runIf(linux)('nodeCommandLine on real processes', () => {
  let dir = '';
  let child: ChildProcess | null = null;
  afterEach(async () => {
    child?.kill('SIGKILL');
    child = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A process whose /proc cmdline looks exactly like a lab daemon's: argv[0] "java", the marker, the daemon class. */
  async function lookalike(nodeDir: string): Promise<number> {
    child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', labMarkerFlag(nodeDir), DAEMON_CLASS], { argv0: 'java', stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    return child.pid ?? -1;
  }

  async function labWith(pid: number | null, nodeDir: string): Promise<LabState> {
    const node: LabNode = {
      index: 1,
      host: '127.0.0.1',
      cqlPort: 9042,
      jmxPort: 7199,
      pid,
      dir: nodeDir,
      logFile: join(nodeDir, 'logs/system.log'),
      datacenter: 'datacenter1',
      rack: 'rack1',
    };
    const state: LabState = {
      version: '5.0',
      fullVersion: '5.0.2',
      nodes: [node],
      heap: '512M',
      datacenters: 1,
      startedAt: new Date(0).toISOString(),
      stateDir: dir,
    };
    await writeLabState(state);
    return state;
  }

  it('refuses a local process that copied the marker when lab.json records another pid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'restart-'));
    const nodeDir = join(dir, 'node1');
    const pid = await lookalike(nodeDir);
    await labWith(12345678, nodeDir);
    const node = { index: 1, pid, dir: nodeDir } as LabNode;
    await expect(nodeCommandLine({ stateDir: dir }, node)).rejects.toThrow(/not the pid lab.json records/);
  });

  it('returns the command line when lab.json records that very pid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'restart-'));
    const nodeDir = join(dir, 'node1');
    const pid = await lookalike(nodeDir);
    const state = await labWith(pid, nodeDir);
    const argv = await nodeCommandLine(state, state.nodes[0]!);
    expect(argv[0]).toBe('java');
    expect(argv.at(-1)).toBe(DAEMON_CLASS);
  });
});
