/**
 * Output caps: a command that prints far more than anyone should keep (200 MiB here, with real processes) is cut
 * at the documented cap (collect/target.ts DEFAULT_MAX_BYTES, 16 MiB per stream, or RunOptions.maxBytes), the
 * result says so (RunResult.truncated; NodetoolReport.output.truncated and an OUTPUT_TOO_LARGE error), the
 * process is stopped, and this process's memory stays bounded.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { SshTarget } from '../../mcp-server/src/collect/ssh-target.js';
import { DEFAULT_MAX_BYTES, type RunResult } from '../../mcp-server/src/collect/target.js';
import { runNodetool } from '../../mcp-server/src/ops/nodetool.js';
import { renderNodetoolReport } from '../../mcp-server/src/render/nodetool.js';
import { record } from './stats.js';

const MIB = 1024 * 1024;
const FLOOD_MIB = 200;

/** A node program that writes `mib` MiB to a stream, honouring back-pressure (as a real chatty tool would). */
const flood = (mib: number, stream: 'stdout' | 'stderr' = 'stdout') =>
  `const b = Buffer.alloc(1 << 20, 97); let n = ${mib}; const s = process.${stream};` +
  `(function w() { while (n-- > 0) { if (!s.write(b)) return s.once('drain', w); } })();`;

/** Runs fn while sampling this process's RSS; returns the result and the peak growth in MiB. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; growthMiB: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, growthMiB: (peak - base) / MIB };
  } finally {
    clearInterval(timer);
  }
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function fakeTool(name: string, body: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-cap-'));
  made.push(dir);
  const path = join(dir, name);
  writeFileSync(path, `#!${process.execPath}\n${body}\n`);
  chmodSync(path, 0o755);
  return { dir, path };
}

describe('output caps with real processes', () => {
  it(`LocalTarget: ${FLOOD_MIB} MiB on stdout is cut at the 16 MiB default, flagged, and memory stays bounded`, async () => {
    expect(DEFAULT_MAX_BYTES).toBe(16 * MIB);
    const t0 = Date.now();
    const { value: r, growthMiB } = await withPeakRss(() => new LocalTarget().run([process.execPath, '-e', flood(FLOOD_MIB)], { timeoutMs: 60_000 }));
    record({
      section: 'cap',
      what: `LocalTarget stdout ${FLOOD_MIB} MiB`,
      limitBytes: DEFAULT_MAX_BYTES,
      keptBytes: r.stdout.length,
      truncated: r.truncated,
      rssGrowthMiB: Math.round(growthMiB),
    });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(r.stdout.length).toBeGreaterThan(DEFAULT_MAX_BYTES / 2);
    // Stopped at the cap, not after writing all 200 MiB.
    expect(r.exitCode).not.toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
    // 16 MiB kept as a JS string (2 bytes/char) plus buffers: well under the 200 MiB the child tried to send.
    expect(growthMiB).toBeLessThan(150);
  }, 90_000);

  it('LocalTarget: an explicit 1 MiB cap on stderr', async () => {
    const r = await new LocalTarget().run([process.execPath, '-e', flood(FLOOD_MIB, 'stderr')], { timeoutMs: 60_000, maxBytes: MIB });
    record({
      section: 'cap',
      what: `LocalTarget stderr ${FLOOD_MIB} MiB, maxBytes 1 MiB`,
      limitBytes: MIB,
      keptBytes: r.stderr.length,
      truncated: r.truncated,
      rssGrowthMiB: 0,
    });
    expect(r.truncated).toBe(true);
    expect(r.stderr.length).toBeLessThanOrEqual(MIB);
  }, 90_000);

  it('a remote target (ssh client printing 200 MiB) is capped the same way', async () => {
    const ssh = fakeTool('ssh', flood(FLOOD_MIB));
    const target = new SshTarget({ host: 'db1' }, { clientEnv: { PATH: ssh.dir } });
    const { value: r, growthMiB } = await withPeakRss(() => target.run(['nodetool', 'status'], { timeoutMs: 60_000 }));
    record({
      section: 'cap',
      what: `SshTarget stdout ${FLOOD_MIB} MiB`,
      limitBytes: DEFAULT_MAX_BYTES,
      keptBytes: r.stdout.length,
      truncated: r.truncated,
      rssGrowthMiB: Math.round(growthMiB),
    });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(growthMiB).toBeLessThan(150);
  }, 90_000);

  it('nodetool printing 200 MiB: the report and its text say the output was cut', async () => {
    const nt = fakeTool('nodetool', flood(FLOOD_MIB));
    const report = await runNodetool({ subcommand: 'status', nodetoolPath: nt.path, timeoutMs: 60_000 }, { env: {} });
    expect(report.output.truncated).toBe(true);
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe('OUTPUT_TOO_LARGE');
    const text = renderNodetoolReport(report);
    expect(text).toMatch(/cut at 16 MiB|OUTPUT_TOO_LARGE/);
    // The excerpt stays short whatever the output size.
    expect(report.output.excerpt.length).toBeLessThan(100_000);
  }, 90_000);

  it('a normal-sized output is not flagged', async () => {
    const r: RunResult = await new LocalTarget().run([process.execPath, '-e', flood(1)], { timeoutMs: 30_000 });
    expect(r.truncated).toBe(false);
    expect(r.stdout.length).toBe(MIB);
    expect(r.exitCode).toBe(0);
  }, 60_000);
});
