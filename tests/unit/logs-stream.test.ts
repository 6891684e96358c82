import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readLogFile, readLogStream } from '../../mcp-server/src/collect/log-reader.js';
import { LogAccumulator, parseLogs, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const c = (level: string, thread: string, date: string, file: string, msg: string) => `${level.padEnd(5)} [${thread}] ${date} ${file} - ${msg}`;

// Synthetic lines with multi-byte text (a CQL key with accents and an emoji) and CRLF endings, so that chunk
// boundaries land inside UTF-8 sequences, surrogate pairs and "\r\n".
const SYNTH = [
  c(
    'WARN',
    'ReadStage-2',
    '2024-05-01 10:00:00,000',
    'ReadCommand.java:600',
    "Read 3 live rows and 4242 tombstone cells for query SELECT * FROM café.menü WHERE k = 'crème brûlée 🍮' LIMIT 100 (see tombstone_warn_threshold)",
  ),
  c(
    'WARN',
    'CompactionExecutor:4',
    '2024-05-01 10:00:01,000',
    'BigTableWriter.java:274',
    'Writing large partition café/menü:🍮 (300.000MiB) to sstable /x/nb-1-big-Data.db',
  ) + '\r',
  c('INFO', 'GCInspector:1', '2024-05-01 10:00:02,000', 'GCInspector.java:313', 'G1 Young Generation GC in 333ms.  G1 Old Gen: 1 -> 2; G1 Eden Space: 3 -> 0') +
    '\r',
  c('ERROR', 'ReadStage-1', '2024-05-01 10:00:03,000', 'JVMStabilityInspector.java:196', 'OutOfMemory error letting the JVM handle the error:'),
  'java.lang.OutOfMemoryError: Java heap space',
  '\tat java.base/java.nio.HeapByteBuffer.<init>(HeapByteBuffer.java:64)',
  'May 01 10:00:05 db-1 scylla[1234]:  [shard 3] seastar - Reactor stalled for 123 ms on shard 3. Backtrace: 0x1 0x2',
  '',
].join('\n');

const TEXT = HAVE_CORPUS ? [...corpusFiles('logs', /\.txt$/).map((f) => corpus(f)), SYNTH].join('\n') : SYNTH;
const BYTES = new TextEncoder().encode(TEXT);

function whole(): LogFacts {
  const r = parseLogs(TEXT);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

function chunked<T extends string | Uint8Array>(all: T, size: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size) as T);
  return out;
}

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-logs-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('streaming: the same facts whatever the chunking', () => {
  const ref = whole();

  it('the reference read sees every sample and the synthetic lines', () => {
    expect(ref.events.tombstoneWarn.count).toBeGreaterThanOrEqual(1);
    expect(ref.largeData.byTable.find((b) => b.table === 'café.menü')).toMatchObject({ maxBytes: 300 * 1024 ** 2, maxKey: '🍮' });
    expect(ref.tombstones.byTable.find((b) => b.table === 'café.menü')).toMatchObject({ maxTombstones: 4242 });
    expect(ref.oom.byKind).toEqual([{ kind: 'Java heap space', count: 1 }]);
    expect(ref.lines.bytes).toBe(BYTES.byteLength);
    expect(ref.source.mixed).toBe(HAVE_CORPUS);
  });

  it.each([1, 2, 3, 7, 13, 64, 1000, 4096, 65537])('text in chunks of %i characters (split mid-line, mid-surrogate, mid-CRLF)', (size) => {
    const acc = new LogAccumulator();
    for (const part of chunked(TEXT, size)) acc.push(part);
    const r = acc.end();
    expect(r.ok && r.value).toEqual(ref);
  });

  it.each([1, 5, 11, 333, 8192])('bytes in chunks of %i (split inside UTF-8 sequences)', (size) => {
    const acc = new LogAccumulator();
    for (const part of chunked(BYTES, size)) acc.push(part);
    const r = acc.end();
    expect(r.ok && r.value).toEqual(ref);
  });

  it('push after end() is ignored and end() can be called again', () => {
    const acc = new LogAccumulator();
    acc.push(SYNTH);
    const a = acc.end();
    acc.push(SYNTH);
    expect(acc.end()).toEqual(a);
  });
});

describe('log reader (collect)', () => {
  const ref = whole();

  it('an async byte stream in odd chunks gives the same facts', async () => {
    const r = await readLogStream(Readable.from(chunked(Buffer.from(BYTES), 777)));
    expect(r.ok && r.value).toEqual(ref);
  });

  it('a file, read in small chunks, and its gzip, give the same facts with the file name as source', async () => {
    const file = join(tmp, 'system.log');
    writeFileSync(file, BYTES);
    writeFileSync(`${file}.1.gz`, gzipSync(BYTES));
    const plain = await readLogFile(file, { chunkBytes: 4099 });
    const gz = await readLogFile(`${file}.1.gz`, { chunkBytes: 4099 });
    expect(plain.ok && gz.ok).toBe(true);
    if (!plain.ok || !gz.ok) return;
    expect(plain.value.events.gcPause.worst[0]!.source).toBe('system.log');
    expect(gz.value.events.gcPause.worst[0]!.source).toBe('system.log.1.gz');
    const strip = (f: LogFacts) => JSON.parse(JSON.stringify(f), (k, v: unknown) => (k === 'source' && typeof v === 'string' ? undefined : v)) as unknown;
    expect(strip(plain.value)).toEqual(strip(ref));
    expect(strip(gz.value)).toEqual(strip(ref));
  });

  it('node name and source label land on every example', async () => {
    const file = join(tmp, 'n2.log');
    writeFileSync(file, SYNTH);
    const r = await readLogFile(file, { node: '10.0.0.2', source: 'nodes/10.0.0.2/system.log' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const gc = r.value.events.gcPause.worst[0]!;
    expect(gc).toMatchObject({ node: '10.0.0.2', source: 'nodes/10.0.0.2/system.log' });
    // journald lines name their own host
    expect(r.value.events.reactorStall.worst[0]!.node).toBe('db-1');
  });

  it('maxBytes stops early and says so; a missing file is ok:false, not a throw', async () => {
    const file = join(tmp, 'big.log');
    writeFileSync(file, BYTES);
    const r = await readLogFile(file, { maxBytes: 2000, chunkBytes: 512 });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.lines.bytes).toBe(2000);
      expect(r.warnings.join(' ')).toMatch(/maxBytes/);
    }
    const missing = await readLogFile(join(tmp, 'nope.log'));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.reason).toMatch(/ENOENT/);
  });

  it('a line longer than 1 MiB is cut there, counted, and the lines after it are read', async () => {
    const gcLine = c('INFO', 'GCInspector:1', '2024-05-01 10:00:02,000', 'GCInspector.java:313', 'G1 Young Generation GC in 444ms.');
    const huge = `${c('INFO', 'main', '2024-05-01 10:00:01,000', 'Config.java:1', 'x')}${'y'.repeat(3 * 1024 * 1024)}`;
    const r = await readLogStream(Readable.from(chunked(Buffer.from(`${gcLine}\n${huge}\n${gcLine}\n`), 64 * 1024)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.lines).toMatchObject({ total: 3, overlong: 1, headed: 3 });
    expect(r.value.gc.pauses).toBe(2);
    expect(r.warnings.join(' ')).toMatch(/longer than 1 MiB/);
  });
});
