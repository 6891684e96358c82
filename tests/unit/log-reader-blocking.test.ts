/**
 * The CLI reads log files with blocking calls (ops/node-logs.ts readNodeLogs(…, blocking)), a server streams them:
 * both must give the very same facts on real logs — one file, a node's system.log + debug.log together (events
 * counted once across files), a --since cut, chunk edges anywhere — and the blocking read must still see an abort.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { NEXT_SOURCE, readLogPiecesBlocking } from '../../mcp-server/src/collect/log-reader.js';
import { readNodeLogs } from '../../mcp-server/src/ops/node-logs.js';

const FIX = join(import.meta.dirname, '..', 'fixtures');
const SPERF = join(FIX, 'sperf');
const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-blocking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A .gz fixture inflated beside the test (the blocking path reads plain files only). */
function plain(gz: string): string {
  const out = join(dir, gz.replace(/\.gz$/, ''));
  writeFileSync(out, gunzipSync(readFileSync(join(SPERF, gz))));
  return out;
}

async function both(paths: string[], since?: { sinceMs: number; utcOffsetMinutes: number }) {
  const streamed = await readNodeLogs('n', paths, undefined, since);
  const blocking = await readNodeLogs('n', paths, undefined, since, undefined, true);
  return { streamed, blocking };
}

describe('blocking reads give the facts streamed reads give', () => {
  const logs = readdirSync(SPERF)
    .filter((f) => f.endsWith('.log'))
    .map((f) => join(SPERF, f));

  it.each(logs)('%s', async (path) => {
    const { streamed, blocking } = await both([path]);
    expect(streamed.logs).toBeDefined();
    expect(blocking).toEqual(streamed);
  });

  it('system.log + debug.log of one node (DSE 6.7.7, sperf DSE_CLUSTER): 1096 dropped mutations, 12 GC pauses either way', async () => {
    const files = ['system.log', 'debug.log'].map((f) => plain(`dse677-10.101.35.102-${f}.gz`));
    const { streamed, blocking } = await both(files);
    expect(blocking).toEqual(streamed);
    expect(blocking.logs!.dropped.total).toBe(1096);
    expect(blocking.logs!.gc.pauses).toBe(12);
    expect(blocking.logs!.lines.duplicates).toBeGreaterThan(0);
  });

  it('with a --since cut: the same lines kept, the same facts', async () => {
    const file = plain('dse677-10.101.35.71-system.log.gz');
    const whole = (await readNodeLogs('n', [file], undefined, undefined, undefined, true)).logs!;
    const from = (whole.time.firstT! + whole.time.lastT!) / 2;
    const { streamed, blocking } = await both([file], { sinceMs: from, utcOffsetMinutes: 0 });
    expect(blocking).toEqual(streamed);
    expect(blocking.logs!.lines.total).toBeGreaterThan(0);
    expect(blocking.logs!.lines.total).toBeLessThan(whole.lines.total);
  });

  it('a .gz file asked for blocking is still inflated (streamed)', async () => {
    const gz = join(SPERF, 'dse677-10.101.35.71-system.log.gz');
    const r = await readNodeLogs('n', [gz], undefined, undefined, undefined, true);
    expect(r.logs?.gc.pauses).toBe((await readNodeLogs('n', [gz])).logs?.gc.pauses);
    expect(r.logs?.gc.maxPauseMs).toBe(800);
  });
});

describe('a blocking read still sees an abort', () => {
  it('lets the event loop in every few MiB: an abort asked for at the first turn stops the read there', async () => {
    const line = `INFO  [main] 2024-05-01 10:00:00,000 Foo.java:1 - ${'x'.repeat(200)}\n`;
    const chunk = Buffer.from(line.repeat(Math.floor(65536 / line.length)));
    let pulled = 0;
    function* pieces() {
      for (let i = 0; i < 1024; i++) {
        pulled += chunk.length;
        yield chunk;
      }
      yield NEXT_SOURCE;
    }
    const ac = new AbortController();
    setImmediate(() => ac.abort());
    const r = await readLogPiecesBlocking(pieces(), { signal: ac.signal });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe('aborted');
    // 64 MiB offered; the abort was seen at the first turn, after about 4 MiB
    expect(pulled).toBeGreaterThan(2 * 1024 * 1024);
    expect(pulled).toBeLessThan(8 * 1024 * 1024);
  });

  it('a read error comes back as ok:false, not a throw', async () => {
    function* pieces(): Generator<Uint8Array> {
      yield Buffer.from('INFO  [main] 2024-05-01 10:00:00,000 Foo.java:1 - hi\n');
      throw new Error('EIO: i/o error, read');
    }
    const r = await readLogPiecesBlocking(pieces());
    expect(r).toMatchObject({ ok: false, reason: 'read error: EIO: i/o error, read' });
  });
});
