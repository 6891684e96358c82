import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { checkPortsFree, tryBind } from '../../mcp-server/src/lab/preflight.js';
import { findListener, isAlive, isLabProcess, summarizeCommand } from '../../mcp-server/src/lab/proc.js';
import { procStat } from '../../mcp-server/src/collect/pid-alive.js';

const linux = process.platform === 'linux';

function listen(host: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const a = server.address();
      if (a === null || typeof a === 'string') throw new Error('no port');
      resolve({ server, port: a.port });
    });
  });
}

describe.runIf(linux)('lab process checks', () => {
  it('sees this process alive and a silly pid dead', async () => {
    expect(await isAlive(process.pid)).toBe(true);
    expect(await isAlive(2 ** 22 + 12345)).toBe(false);
    expect(await isAlive(-1)).toBe(false);
    expect(await procStat(process.pid)).toMatchObject({ pid: process.pid, ppid: process.ppid, state: expect.stringMatching(/^[RS]$/) });
  });

  it('never takes a non-java or unmarked process for a lab node', async () => {
    expect(await isLabProcess(process.pid, '/tmp/whatever/node1')).toBe(false);
    expect(await isLabProcess(null, '/tmp/whatever/node1')).toBe(false);
  });

  it('treats an exited child as dead', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(0)'], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    expect(await isAlive(child.pid ?? -1)).toBe(false);
  });

  it('summarises a command line', () => {
    expect(summarizeCommand(['/usr/bin/java', '-Xmx1g', 'org.apache.cassandra.service.CassandraDaemon'])).toBe(
      'java … org.apache.cassandra.service.CassandraDaemon',
    );
    expect(summarizeCommand(['/bin/sleep'])).toBe('sleep');
  });
});

describe('lab port preflight', () => {
  it('reports a free port as free and a taken one as in use', async () => {
    const { server, port } = await listen('127.0.0.1');
    try {
      expect(await tryBind('127.0.0.1', port)).toBe('in-use');
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(await tryBind('127.0.0.1', port)).toBe('free');
  });

  it.runIf(linux)('can bind 127.0.0.2 and 127.0.0.3 (Linux loopback)', async () => {
    expect(await tryBind('127.0.0.2', 0)).toBe('free');
    expect(await tryBind('127.0.0.3', 0)).toBe('free');
  });

  it('fails with PORT_IN_USE naming host:port and the holder', async () => {
    const { server, port } = await listen('127.0.0.1');
    try {
      if (linux) {
        const holder = await findListener('127.0.0.1', port);
        expect(holder?.pid).toBe(process.pid);
      }
      const err = await checkPortsFree([{ host: '127.0.0.1', port, what: 'CQL of node 1' }]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(LabError);
      const le = err as LabError;
      expect(le.code).toBe('PORT_IN_USE');
      expect(le.message).toContain(`127.0.0.1:${port} (CQL of node 1)`);
      if (linux) expect(le.message).toContain(`pid ${process.pid}`);
      expect(le.fix).toContain('cql-tuner lab stop');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
