import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitBatchOutput } from '../../mcp-server/src/core/nodetool-batch-output.js';
import { NodetoolBatchPool, splitJavaNodetoolArgv } from '../../mcp-server/src/collect/nodetool-batch.js';
import { labNodetoolArgv } from '../../mcp-server/src/lab/index.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';

const M = '@@m1';
const section = (i: number, out: string, err: string, status: number, ms: number) =>
  `${M} out ${i}\n${out}\n${M} err ${i}\n${err}\n${M} end ${i} ${status} ${ms}\n`;

describe('splitBatchOutput', () => {
  it('gives each command exactly its own stdout, stderr and status', () => {
    const text = section(0, 'Pool Name Active\nReadStage 0\n', '', 0, 12) + section(1, 'no newline at end', 'nodetool: Failed to connect', 1, 40);
    const s = splitBatchOutput(text, M, 2);
    expect(s[0]).toEqual({ stdout: 'Pool Name Active\nReadStage 0\n', stderr: '', status: 0, ms: 12, exited: false });
    expect(s[1]).toEqual({ stdout: 'no newline at end', stderr: 'nodetool: Failed to connect', status: 1, ms: 40, exited: false });
  });

  it('marks commands the runner never finished (killed mid-batch) with status null, keeping what was printed', () => {
    const text = section(0, 'done', '', 0, 5) + `${M} out 1\npartial line`;
    const s = splitBatchOutput(text, M, 3);
    expect(s[0]!.status).toBe(0);
    expect(s[1]).toEqual({ stdout: 'partial line', stderr: '', status: null, ms: null, exited: false });
    expect(s[2]).toEqual({ stdout: '', stderr: '', status: null, ms: null, exited: false });
  });

  it('reads a command during which nodetool exited the JVM as a failure and flags it', () => {
    const text = `${M} out 0\n\n${M} err 0\nnodetool: Failed to connect to '127.0.0.1:1'\n${M} end 0 exit 900\n`;
    expect(splitBatchOutput(text, M, 2)[0]).toEqual({ stdout: '', stderr: "nodetool: Failed to connect to '127.0.0.1:1'", status: 1, ms: 900, exited: true });
  });

  it('is total on garbage', () => {
    expect(splitBatchOutput('\u0000garbage', M, 1)[0]!.status).toBeNull();
    expect(splitBatchOutput('', '', 2)).toHaveLength(2);
    expect(splitBatchOutput('x', M, 0)).toEqual([]);
  });
});

describe('splitJavaNodetoolArgv', () => {
  it('recognises `java <flags> -cp <cp> …NodeTool` and nothing else', () => {
    expect(splitJavaNodetoolArgv(['/usr/bin/java', '-Xmx256m', '-cp', 'a.jar:b.jar', 'org.apache.cassandra.tools.NodeTool'])).toEqual({
      java: '/usr/bin/java',
      flags: ['-Xmx256m'],
      classpath: 'a.jar:b.jar',
    });
    expect(splitJavaNodetoolArgv(['/opt/cassandra/bin/nodetool'])).toBeNull();
    expect(splitJavaNodetoolArgv(['java', '-cp', 'x', 'Other'])).toBeNull();
  });
});

// The real thing: compile the runner against the lab's cached Cassandra jars with this JDK's javac and run
// two nodetool commands in one JVM against a port nobody listens on. Each gets its own classified failure.
const cacheDir = mkdtempSync(join(tmpdir(), 'cql-tuner-batch-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('one JVM for several nodetool commands (real javac, real NodeTool)', async () => {
  const prefix = await labNodetoolArgv().catch(() => null);
  it.skipIf(!prefix)(
    'compiles once and returns a separate, classified result per command',
    async () => {
      const pool = new NodetoolBatchPool(cacheDir);
      const batcher = await pool.batcherFor(prefix!);
      expect(batcher).not.toBeNull();
      expect(existsSync(join(cacheDir, 'nodetool-batch'))).toBe(true);
      const t0 = performance.now();
      const [a, b] = await Promise.all(
        ['tpstats', 'info'].map((subcommand) => runNodetool({ subcommand, host: '127.0.0.1', port: 1, timeoutMs: 60_000, raw: true }, { batch: pool })),
      );
      const both = performance.now() - t0;
      for (const r of [a!, b!]) {
        expect(r.ok).toBe(false);
        expect(r.error?.code).toBe('JMX_UNREACHABLE');
        expect(r.error?.message).toContain('127.0.0.1:1');
      }
      expect(a!.subcommand).toBe('tpstats');
      expect(b!.subcommand).toBe('info');
      // Sanity, not a timing assertion: both answers came back from one batch within the timeout.
      expect(both).toBeLessThan(60_000);
    },
    120_000,
  );
});
