/**
 * Issue #13, class 2: bundle readers follow symlinks and open special files. A bundle is untrusted (anyone can hand
 * one over, and the assistant names its folder): its raw files were read with readFile, so a raw file that was a
 * symbolic link returned a private key, or the server's own /proc/self/environ, through analyze_bundle's `raw`;
 * a FIFO blocked the call forever, and a few of them took every thread of libuv's pool so that every file tool of
 * the server hung. Now every bundle file goes through collect/safe-file.ts (lstat, O_NOFOLLOW|O_NONBLOCK, fstat).
 * Run through the MCP server in process, as the assistant would call it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTimeout } from '../../mcp-server/src/collect/bounded.js';
import { writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { NodeRaw, SweepNode } from '../../mcp-server/src/ops/sweep.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { readSavedOutput } from '../../mcp-server/src/ops/saved-output.js';
import { fixture } from '../helpers/corpus.js';
import { record } from './stats.js';

const SECRET = '-----BEGIN PRIVATE KEY----- SeNtInEl-bundle-key-5d1c0a77';
/** What the server's own environment looks like in /proc/self/environ: a few of its NAME=value entries. */
const ENVIRON_ENTRIES = readFileSync('/proc/self/environ', 'latin1')
  .split('\0')
  .filter((e) => /^[A-Z_]+=.{12,}$/.test(e))
  .slice(0, 8);

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec2-'));
const fifos: string[] = [];
let client: Client;
let tried = 0;
let unsafe = 0;

const node = (address: string): SweepNode => ({
  address,
  cqlPort: 9042,
  jmxHost: address,
  jmxPort: 7199,
  datacenter: 'dc1',
  rack: 'r1',
  hostId: null,
  upPerDriver: true,
});
const SUBS = ['tpstats', 'gcstats', 'info', 'compactionstats', 'proxyhistograms', 'status'];
const raw = (address: string): NodeRaw => ({
  node: node(address),
  ms: 10,
  cqlReachable: false,
  virtualTables: [],
  sources: SUBS.map((sub) => ({ name: `nodetool:${sub}`, via: 'nodetool', ok: true, ms: 5, text: fixtureOr(sub) })),
});
const fixtureOr = (sub: string) => {
  try {
    return fixture(`lab/cassandra-5.0-3node/node1/nodetool-${sub}.txt`);
  } catch {
    return `nodetool ${sub}\n`;
  }
};

async function bundle(name: string): Promise<string> {
  const meta = { tool: { name: 'cql-tuner' as const, version: 'test' }, collectedAt: '2024-01-01T00:00:00Z', durationMs: 1, contactPoints: ['10.0.0.1'] };
  return writeBundle(join(tmp, name), meta, [raw('10.0.0.1')]);
}

const replaceWithLink = (path: string, to: string) => {
  unlinkSync(path);
  symlinkSync(to, path);
};
const replaceWithFifo = (path: string) => {
  unlinkSync(path);
  execFileSync('mkfifo', [path]);
  fifos.push(path);
};

type ToolResult = { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>, timeout = 20_000) =>
  client.callTool({ name, arguments: args }, undefined, { timeout }).then(
    (r) => r as ToolResult,
    (e: unknown): ToolResult & { thrown: string } => ({ isError: true, thrown: String(e) }),
  );
const leaked = (r: unknown) => {
  const s = JSON.stringify(r);
  return s.includes('SeNtInEl-bundle-key') || ENVIRON_ENTRIES.some((e) => s.includes(e));
};

beforeAll(async () => {
  const server = createServer();
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  client = new Client({ name: 'security-2', version: '0' });
  await client.connect(ct);
  writeFileSync(join(tmp, 'id_rsa'), `${SECRET}\n`, { mode: 0o600 });
  writeFileSync(join(tmp, 'saved-tpstats.txt'), fixtureOr('tpstats'));
  expect(ENVIRON_ENTRIES.length).toBeGreaterThan(0);
});

afterAll(async () => {
  // With the old code a reader sits blocked in open() on each FIFO: opening the write end lets it go.
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* no reader: nothing to release */
    }
  }
  await client?.close();
  rmSync(tmp, { recursive: true, force: true });
  record({ section: 'attack', cls: '2 bundle symlinks and special files', tried, unsafe });
});

describe('class 2: bundle files are regular files inside the bundle, never links or special files', () => {
  it('raw files that are symlinks to a private key and to /proc/self/environ are refused, the rest still read', async () => {
    const dir = await bundle('links');
    replaceWithLink(join(dir, '10.0.0.1', 'nodetool-tpstats.txt'), join(tmp, 'id_rsa'));
    replaceWithLink(join(dir, '10.0.0.1', 'nodetool-gcstats.txt'), '/proc/self/environ');
    // A symlink to a sibling inside the bundle is refused too: a bundle holds no links at all.
    replaceWithLink(join(dir, '10.0.0.1', 'nodetool-status.txt'), join(dir, '10.0.0.1', 'nodetool-info.txt'));
    for (const rawReq of [{}, { source: 'tpstats' }, { source: 'gcstats' }, { node: '10.0.0.1', source: 'nodetool:gcstats' }]) {
      tried++;
      const r = await call('analyze_bundle', { path: dir, raw: rawReq, detail: true });
      if (leaked(r)) unsafe++;
      expect(leaked(r)).toBe(false);
      expect(r.isError).toBeFalsy();
    }
    const r = await call('analyze_bundle', { path: dir, raw: {}, detail: true });
    const rawOut = r.structuredContent?.['raw'] as { outputs: { source: string; text: string }[] };
    // Honest files of the same bundle are still returned.
    expect(rawOut.outputs.map((o) => o.source).sort()).toEqual(['nodetool:compactionstats', 'nodetool:info', 'nodetool:proxyhistograms']);
    // The refusal is said, per source, without quoting where the link pointed.
    const text = JSON.stringify(r);
    expect(text).toMatch(/bundle file 10\.0\.0\.1\/nodetool-tpstats\.txt is a symbolic link/);
    expect(text).not.toContain('id_rsa');
    // The other bundle readers (diagnose, review_schema with a bundle) take the same path.
    for (const [name, args] of [
      ['diagnose', { bundle: dir, detail: true }],
      ['review_schema', { text: "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};", bundleDir: dir }],
    ] as const) {
      tried++;
      const other = await call(name, args);
      if (leaked(other)) unsafe++;
      expect(leaked(other)).toBe(false);
    }
  }, 60_000);

  it('a node folder that is a symlink out of the bundle is refused', async () => {
    const dir = await bundle('dir-link');
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    for (const sub of SUBS) writeFileSync(join(outside, `nodetool-${sub}.txt`), `${SECRET}\n`);
    rmSync(join(dir, '10.0.0.1'), { recursive: true });
    symlinkSync(outside, join(dir, '10.0.0.1'));
    tried++;
    const r = await call('analyze_bundle', { path: dir, raw: {} });
    if (leaked(r)) unsafe++;
    expect(leaked(r)).toBe(false);
    expect(JSON.stringify(r)).toMatch(/symbolic link/);
  }, 30_000);

  it('manifest.json as a symlink (to a valid manifest) or as a FIFO refuses the bundle at once', async () => {
    const real = await bundle('manifest-real');
    const dir = await bundle('manifest-link');
    replaceWithLink(join(dir, 'manifest.json'), join(real, 'manifest.json'));
    tried++;
    const r = await call('analyze_bundle', { path: dir });
    if (!r.isError) unsafe++;
    expect(r.isError).toBe(true);
    expect(r.content?.[0]?.text).toMatch(/^\[NOT_A_BUNDLE\] .*manifest\.json is a symbolic link/);

    const fifo = await bundle('manifest-fifo');
    replaceWithFifo(join(fifo, 'manifest.json'));
    tried++;
    const t0 = Date.now();
    const f = await call('analyze_bundle', { path: fifo }, 10_000);
    if (!f.isError || Date.now() - t0 > 5_000) unsafe++;
    expect(f.content?.[0]?.text).toMatch(/^\[NOT_A_BUNDLE\] .*manifest\.json is not a regular file/);
  }, 30_000);

  it('bundles of FIFOs answer within a bound, and another file tool called meanwhile answers too', async () => {
    const dirs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const dir = await bundle(`fifos-${i}`);
      for (const sub of SUBS) replaceWithFifo(join(dir, '10.0.0.1', `nodetool-${sub}.txt`));
      dirs.push(dir);
    }
    const t0 = Date.now();
    // 5 bundle calls at once (more than libuv's 4 threads), each over 6 FIFOs, and an ordinary interpret call.
    const [results, other] = await Promise.all([
      Promise.all(dirs.map((d) => call('analyze_bundle', { path: d, raw: {} }, 15_000).then((r) => ({ r, ms: Date.now() - t0 })))),
      (async () => {
        await new Promise((res) => setTimeout(res, 200));
        const s = Date.now();
        return { r: await call('interpret', { path: join(tmp, 'saved-tpstats.txt') }, 15_000), ms: Date.now() - s };
      })(),
    ]);
    for (const { r, ms } of results) {
      tried++;
      const ok = !('thrown' in r) && ms < 10_000 && !r.isError;
      if (!ok) unsafe++;
      expect(r, JSON.stringify(r).slice(0, 300)).not.toHaveProperty('thrown');
      expect(ms).toBeLessThan(10_000);
      // The snapshot is still made; every FIFO source says it was not read.
      expect(JSON.stringify(r)).toMatch(/nodetool-tpstats\.txt is not a regular file/);
    }
    tried++;
    if ('thrown' in other.r || other.r.isError || other.ms > 5_000) unsafe++;
    expect(other.r, JSON.stringify(other.r).slice(0, 300)).not.toHaveProperty('thrown');
    expect(other.r.isError).toBeFalsy();
    expect(other.ms).toBeLessThan(5_000);
    expect(unsafe).toBe(0);
  }, 60_000);

  it('a path swapped between a regular file and a FIFO while it is checked and opened never hangs a reader', async () => {
    const swap = join(tmp, 'swap');
    mkdirSync(swap);
    const [reg, fifo, at] = ['reg.txt', 'pipe', 'saved.txt'].map((n) => join(swap, n)) as [string, string, string];
    writeFileSync(reg, fixtureOr('tpstats'));
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo, at);
    // Another process swaps `at` between the two as fast as it can (hard link + rename: `at` always exists), so a
    // reader that checks and then opens meets the FIFO after a check that saw the regular file.
    const loop = `const fs = require('fs'); const [reg, fifo, at] = ${JSON.stringify([reg, fifo, at])}; let i = 0;
      for (;;) {
        const t = at + '.' + (i++ % 2);
        try { fs.linkSync(i % 2 ? reg : fifo, t); fs.renameSync(t, at); } catch { try { fs.unlinkSync(t); } catch {} }
      }`;
    const swapper = spawn(process.execPath, ['-e', loop], { stdio: 'ignore' });
    for (let i = 0; i < 500 && !lstatSync(at, { throwIfNoEntry: false }); i++) await new Promise((res) => setTimeout(res, 10));
    try {
      const outcomes = { read: 0, refused: 0, hung: 0 };
      for (let i = 0; i < 300; i++) {
        tried++;
        const r = await withTimeout(readSavedOutput(at), 2_000, 'readSavedOutput').then(
          () => 'read' as const,
          (e: { code?: string }) => (e.code === 'TIMEOUT' ? ('hung' as const) : ('refused' as const)),
        );
        outcomes[r]++;
        if (r === 'hung') {
          unsafe++;
          break;
        }
      }
      expect(outcomes.hung, JSON.stringify(outcomes)).toBe(0);
      expect(outcomes.read + outcomes.refused).toBe(300);
    } finally {
      swapper.kill('SIGKILL');
    }
  }, 60_000);

  it('a FIFO named as a log, a saved output or a config file is refused at once (same open flags as bundles)', async () => {
    const fifo = join(tmp, 'system.log');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    for (const [name, args] of [
      ['analyze_logs', { paths: [fifo] }],
      ['interpret', { path: fifo }],
      ['audit_config', { files: [fifo] }],
      ['review_schema', { file: fifo }],
    ] as const) {
      tried++;
      const t0 = Date.now();
      const r = await call(name, args, 10_000);
      const ms = Date.now() - t0;
      if (!r.isError || 'thrown' in r || ms > 2_000) unsafe++;
      expect(r.content?.[0]?.text, name).toMatch(/is not a regular file/);
      expect(ms).toBeLessThan(2_000);
    }
  }, 30_000);
});
