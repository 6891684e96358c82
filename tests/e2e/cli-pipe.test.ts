/**
 * The CLI's output is complete whatever reads it. On Linux, stdout to a pipe goes asynchronous once the kernel's
 * 64 KiB pipe buffer is full, and exiting straight after the write cut `--json | jq` at 65,536 bytes. Each verb's
 * large output is read once into a file and once through a pipe whose reader waits before reading, then compared
 * byte for byte.
 */
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { NodeRaw } from '../../mcp-server/src/ops/sweep.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { BUNDLE } from '../helpers/mcp-client.js';

let work = '';
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'] ?? '', CQL_TUNER_HOME: join(work, 'home'), CQL_TUNER_CODE_CACHE: '0' });

/** Runs the CLI with stdout into a file; resolves to the exit code. */
function toFile(args: string[], file: string): Promise<number> {
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, [BUNDLE, ...args], { stdio: ['ignore', fd, 'ignore'], env: env() });
  return new Promise((resolve) => child.on('close', (code) => (closeSync(fd), resolve(code ?? -1))));
}

/**
 * Runs the CLI as `cql-tuner ARGS | (sleep; cat) > file`, the way an operator pipes it into a slow consumer (jq,
 * less): nobody reads the pipe for `waitMs` while the CLI finishes. pipefail gives the CLI's own exit code.
 */
async function throughSlowPipe(args: string[], waitMs: number, out: string): Promise<{ code: number; out: Buffer }> {
  const script = `set -o pipefail; "$0" "$@" | (sleep ${waitMs / 1000}; cat) > "${out}"`;
  const r = await execa('bash', ['-c', script, process.execPath, BUNDLE, ...args], { reject: false, env: env(), stderr: 'ignore' });
  return { code: r.exitCode ?? -1, out: readFileSync(out) };
}

function fixtureBundle(dir: string): Promise<string> {
  const base = join(FIXTURES_DIR, 'lab', 'cassandra-5.0-3node');
  const nodes: NodeRaw[] = ['node1', 'node2', 'node3'].map((n, i) => ({
    node: {
      address: `127.0.0.${i + 1}`,
      cqlPort: 9042,
      jmxHost: '127.0.0.1',
      jmxPort: 7199,
      datacenter: 'datacenter1',
      rack: 'rack1',
      hostId: null,
      upPerDriver: true,
    },
    ms: 10,
    cqlReachable: false,
    virtualTables: [],
    sources: readdirSync(join(base, n))
      .filter((f) => f.startsWith('nodetool-') && f.endsWith('.txt'))
      .map((f) => ({
        name: `nodetool:${f.slice('nodetool-'.length, -'.txt'.length)}`,
        via: 'nodetool' as const,
        ok: true,
        ms: 1,
        text: readFileSync(join(base, n, f), 'utf8'),
      })),
  }));
  return writeBundle(
    dir,
    { tool: { name: 'cql-tuner', version: 'test' }, collectedAt: new Date(0).toISOString(), durationMs: 30, contactPoints: ['127.0.0.1'] },
    nodes,
  );
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cql-tuner-pipe-'));
  // 3,000 status rows and 1,500 tables: outputs of hundreds of KiB to MiB, far over one pipe buffer.
  const rows = ['Datacenter: dc1', '===============', 'Status=Up/Down', '|/ State=Normal/Leaving/Joining/Moving'];
  rows.push('--  Address     Load       Tokens  Owns (effective)  Host ID                               Rack');
  for (let i = 0; i < 3000; i++) {
    const id = `${i.toString(16).padStart(8, '0')}-1111-2222-3333-444455556666`;
    rows.push(`${i % 7 === 0 ? 'DN' : 'UN'}  10.0.${(i >> 8) & 255}.${i & 255}  ${100 + (i % 50)}.5 GiB  16      33.3%             ${id}  rack${i % 3}`);
  }
  writeFileSync(join(work, 'status.txt'), `${rows.join('\n')}\n`);
  const ddl = ["CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'};"];
  for (let i = 0; i < 1500; i++) {
    ddl.push(`CREATE TABLE ks.t${i} (id int PRIMARY KEY, v text) WITH gc_grace_seconds = 0 AND compaction = {'class': 'LeveledCompactionStrategy'};`);
    ddl.push(`CREATE INDEX t${i}_v ON ks.t${i} (v);`);
  }
  writeFileSync(join(work, 'schema.cql'), `${ddl.join('\n')}\n`);
  await fixtureBundle(join(work, 'bundle'));
  // 30,000 log lines over 2,000 tables: tombstone and large-partition warnings, GC pauses, dropped mutations.
  const log: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    const p2 = (n: number) => String(n).padStart(2, '0');
    const ts = `2024-03-${p2(1 + Math.floor(i / 10_000))} ${p2(Math.floor(i / 3600) % 24)}:${p2(Math.floor(i / 60) % 60)}:${p2(i % 60)},${String(i % 1000).padStart(3, '0')}`;
    const t = `ks.t${i % 2000}`;
    log.push(
      [
        `WARN  [ReadStage-${i % 8}] ${ts} ReadCommand.java:569 - Read 1 live rows and ${1000 + i} tombstone cells for query SELECT * FROM ${t} WHERE id = ${i} LIMIT 5000 (see tombstone_warn_threshold)`,
        `INFO  [Service Thread] ${ts} GCInspector.java:285 - G1 Young Generation GC in ${200 + (i % 800)}ms.  G1 Eden Space: 1 -> 0; G1 Old Gen: 2 -> 3`,
        `INFO  [ScheduledTasks:1] ${ts} MessagingService.java:1236 - MUTATION messages were dropped in last 5000 ms: ${i % 50} internal and ${i % 30} cross node. Mean internal dropped latency: ${i % 900} ms and Mean cross-node dropped latency: ${i % 700} ms`,
        `WARN  [CompactionExecutor:${i % 4}] ${ts} BigTableWriter.java:211 - Writing large partition ${t.replace('.', '/')}:key${i} (${100 + (i % 400)}.000MiB) to sstable /var/lib/cassandra/data/${t.replace('.', '/')}/nb-${i}-big-Data.db`,
      ][i % 4]!,
    );
  }
  writeFileSync(join(work, 'system.log'), `${log.join('\n')}\n`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('CLI output through a slow pipe equals the file output, byte for byte', () => {
  const cases: [string, () => string[]][] = [
    ['interpret --json', () => ['interpret', join(work, 'status.txt'), '--json']],
    ['interpret (text)', () => ['interpret', join(work, 'status.txt')]],
    ['review-schema --json', () => ['review-schema', join(work, 'schema.cql'), '--json']],
    ['review-schema (text)', () => ['review-schema', join(work, 'schema.cql')]],
    ['analyze --json --detail', () => ['analyze', join(work, 'bundle'), '--json', '--detail']],
    ['analyze --raw (text)', () => ['analyze', join(work, 'bundle'), '--raw']],
    // the issue's own example: `cql-tuner logs … --json | wc -c` gave 65,536
    ['logs --json', () => ['logs', join(work, 'system.log'), '--json']],
  ];
  for (const [name, args] of cases) {
    it(
      name,
      async () => {
        const file = join(work, `${name.replace(/\W+/g, '_')}.out`);
        const fileCode = await toFile(args(), file);
        const expected = readFileSync(file);
        // Only an output larger than the pipe buffer can be cut: make sure the case tests something.
        expect(expected.length, expected.subarray(0, 400).toString()).toBeGreaterThan(128 * 1024);
        const piped = await throughSlowPipe(args(), 700, `${file}.piped`);
        expect(piped.code).toBe(fileCode);
        expect(piped.out.length).toBe(expected.length);
        expect(piped.out.equals(expected)).toBe(true);
      },
      60_000,
    );
  }

  it('a reader that goes away early ends the CLI quietly (exit 141, no stack trace)', async () => {
    const child = spawn(process.execPath, [BUNDLE, 'review-schema', join(work, 'schema.cql'), '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: env() });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    expect(code).toBe(141);
    expect(err).not.toMatch(/EPIPE|at .*\.js/);
  }, 60_000);
});
