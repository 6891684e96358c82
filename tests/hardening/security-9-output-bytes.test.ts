/**
 * Issue #13, class 9: output made of NUL bytes bypassed the memory bound of the 16 MiB output cap. LocalTarget
 * (and ssh/kubectl/docker through collect/remote-run.ts) let execa buffer the output; at the cap execa built an
 * error message holding the whole output with each control character escaped (a NUL became "\u0000"), so four
 * calls printing NUL bytes took more than a gigabyte and seconds of CPU each. Output is now kept as bytes up to
 * the cap by LocalTarget itself and the child is stopped there. Also: a /dev/zero config path is refused at once,
 * even while other calls hold files open.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import { DEFAULT_MAX_BYTES, type RunResult } from '../../mcp-server/src/collect/target.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { record } from './stats.js';

const MIB = 1024 * 1024;
const CALLS = 4;
/**
 * RSS growth allowed over what is kept: a kept output exists as decoded pieces and as the joined string for a
 * moment (two caps' worth per call), plus 64 MiB for everything else. The old code used 0.4-2 GB here.
 */
const boundMiB = (calls: number) => (calls * 2 * DEFAULT_MAX_BYTES) / MIB + 64;

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec9-'));
const fifos: string[] = [];
let tried = 0;
let unsafe = 0;

/** The kernel's peak RSS of this process (VmHWM), reset by writing 5 to clear_refs; null where that is not there. */
function peakRss(reset = false): number | null {
  try {
    if (reset) writeFileSync('/proc/self/clear_refs', '5');
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs fn and returns the peak RSS growth in MiB. The kernel's high-water mark catches what a timer cannot: the old
 * code's peak came during a long synchronous escape, when no JS timer runs.
 */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; growthMiB: number; ms: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  const canReset = peakRss(true) !== null;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = Date.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss, (canReset ? peakRss() : null) ?? 0);
    return { value, growthMiB: (peak - base) / MIB, ms: Date.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}

const check = (rs: RunResult[], growthMiB: number) => {
  for (const r of rs) {
    tried++;
    if (!r.truncated || Buffer.byteLength(r.stdout) > DEFAULT_MAX_BYTES || growthMiB > boundMiB(rs.length)) unsafe++;
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(r.stdout.length).toBeGreaterThan(DEFAULT_MAX_BYTES / 2);
    expect(/^\0+$/.test(r.stdout)).toBe(true);
  }
  expect(growthMiB).toBeLessThan(boundMiB(rs.length));
};

const recordCap = (what: string, r: RunResult, growthMiB: number) =>
  record({ section: 'cap', what, limitBytes: DEFAULT_MAX_BYTES, keptBytes: r.stdout.length, truncated: r.truncated, rssGrowthMiB: Math.round(growthMiB) });

afterAll(() => {
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* no reader blocked on it */
    }
  }
  rmSync(tmp, { recursive: true, force: true });
  record({ section: 'attack', cls: '9 NUL-byte output vs the output cap', tried, unsafe });
});

describe('class 9: the output cap bounds memory by bytes read, whatever the bytes are', () => {
  it(`LocalTarget: \`head -c 200M /dev/zero\` stays within ${boundMiB(1)} MiB of RSS growth, is cut and stops at once`, async () => {
    const { value, growthMiB, ms } = await withPeakRss(() => new LocalTarget().run(['head', '-c', '200M', '/dev/zero'], { timeoutMs: 60_000 }));
    recordCap('LocalTarget 200 MiB of NUL bytes', value, growthMiB);
    check([value], growthMiB);
    expect(ms).toBeLessThan(5_000);
  }, 90_000);

  it(`LocalTarget: ${CALLS} such calls at once stay within ${boundMiB(CALLS)} MiB`, async () => {
    const zeros = () => new LocalTarget().run(['head', '-c', '200M', '/dev/zero'], { timeoutMs: 60_000 });
    const { value, growthMiB, ms } = await withPeakRss(() => Promise.all(Array.from({ length: CALLS }, zeros)));
    recordCap(`LocalTarget ${CALLS}x 200 MiB of NUL bytes`, value[0]!, growthMiB);
    check(value, growthMiB);
    expect(ms).toBeLessThan(15_000);
  }, 90_000);

  it(`a remote target (an ssh client printing 200 MiB of NUL bytes) is bounded the same way, ${CALLS} at once`, async () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'ssh'),
      `#!${process.execPath}\nconst b = Buffer.alloc(1 << 20, 0); let n = 200; const s = process.stdout;\n` +
        "(function w() { while (n-- > 0) { if (!s.write(b)) return s.once('drain', w); } })();\n",
    );
    chmodSync(join(bin, 'ssh'), 0o755);
    const target = new SshTarget({ host: 'db1' }, { clientEnv: { PATH: bin } });
    const status = () => target.run(['nodetool', 'status'], { timeoutMs: 60_000 });
    const { value, growthMiB } = await withPeakRss(() => Promise.all(Array.from({ length: CALLS }, status)));
    recordCap(`SshTarget ${CALLS}x 200 MiB of NUL bytes`, value[0]!, growthMiB);
    check(value, growthMiB);
  }, 90_000);

  it('the cap counts bytes: multi-byte output is cut at the byte cap on a character boundary', async () => {
    // "é" is two bytes: 3 MiB of them must come back as at most 1 MiB of bytes, never a half character.
    const r = await new LocalTarget().run([process.execPath, '-e', "process.stdout.write('é'.repeat(3 << 20))"], { timeoutMs: 30_000, maxBytes: MIB });
    tried++;
    if (!r.truncated || Buffer.byteLength(r.stdout) > MIB) unsafe++;
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBe(MIB);
    expect(r.stdout).toMatch(/^é+$/);
  }, 30_000);

  describe('a /dev/zero config path', () => {
    let client: Client;
    beforeAll(async () => {
      const server = createServer();
      const [ct, st] = InMemoryTransport.createLinkedPair();
      await server.connect(st);
      client = new Client({ name: 'security-9', version: '0' });
      await client.connect(ct);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('is refused in well under a second by every tool that reads config files, even while FIFO bundles are read', async () => {
      // Pressure on libuv's pool first: bundles whose files are FIFOs (the old readers blocked a thread on each).
      const pressure: Promise<unknown>[] = [];
      for (let i = 0; i < 5; i++) {
        const meta = { tool: { name: 'cql-tuner' as const, version: 'test' }, collectedAt: 'now', durationMs: 1, contactPoints: ['10.0.0.1'] };
        const dir = await writeBundle(join(tmp, `fifo-${i}`), meta, [
          {
            node: { address: '10.0.0.1', cqlPort: 9042, jmxHost: '10.0.0.1', jmxPort: 7199, datacenter: 'dc1', rack: 'r1', hostId: null, upPerDriver: true },
            ms: 1,
            cqlReachable: false,
            virtualTables: [],
            sources: [{ name: 'nodetool:info', via: 'nodetool', ok: true, ms: 1, text: 'x\n' }],
          },
        ]);
        const f = join(dir, '10.0.0.1', 'nodetool-info.txt');
        unlinkSync(f);
        execFileSync('mkfifo', [f]);
        fifos.push(f);
        pressure.push(client.callTool({ name: 'analyze_bundle', arguments: { path: dir } }, undefined, { timeout: 15_000 }).catch(() => null));
      }
      const link = join(tmp, 'cassandra.yaml');
      symlinkSync('/dev/zero', link);
      const conf = join(tmp, 'conf');
      mkdirSync(conf);
      symlinkSync('/dev/zero', join(conf, 'cassandra.yaml'));
      const calls: [string, Record<string, unknown>][] = [
        ['audit_config', { files: ['/dev/zero'] }],
        ['audit_config', { files: [link] }],
        ['audit_config', { files: [conf] }],
        ['review_schema', { file: '/dev/zero' }],
        ['migration_review', { from: { product: 'cassandra', version: '4.1' }, to: { product: 'cassandra', version: '5.0' }, configFile: '/dev/zero' }],
        ['migration_review', { from: { product: 'cassandra', version: '4.1' }, to: { product: 'cassandra', version: '5.0' }, schemaFile: link }],
        ['interpret', { path: '/dev/zero' }],
      ];
      for (const [name, args] of calls) {
        tried++;
        const t0 = Date.now();
        const r = (await client
          .callTool({ name, arguments: args }, undefined, { timeout: 5_000 })
          .catch((e: unknown) => ({ isError: true, thrown: String(e) }))) as { isError?: boolean; content?: { text?: string }[] };
        const ms = Date.now() - t0;
        const text = r.content?.[0]?.text ?? JSON.stringify(r);
        const refused = r.isError === true && /is \/dev\/zero, a kernel or device file/.test(text);
        if (!refused || ms > 1_000) unsafe++;
        expect(text, `${name} ${JSON.stringify(args)}`).toMatch(/^\[NOT_A_FILE\] .*is \/dev\/zero, a kernel or device file/);
        expect(ms, `${name} ${JSON.stringify(args)}`).toBeLessThan(1_000);
      }
      await Promise.all(pressure);
    }, 60_000);
  });
});
