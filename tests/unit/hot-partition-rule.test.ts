import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainFindings } from '../../mcp-server/src/core/diagnosis/chain.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { buildNodetoolArgs, NODETOOL_SUBCOMMANDS, NODETOOL_TOOL_SUBCOMMANDS } from '../../mcp-server/src/core/nodetool-commands.js';
import { parseToppartitions, type TopPartitions } from '../../mcp-server/src/core/parse/nodetool/toppartitions.js';
import { hotPartitionOutcome, printableKey, type HotPartitionInput } from '../../mcp-server/src/core/rules/hot-partition.js';
import { nodetoolInputSchema } from '../../mcp-server/src/ops/nodetool.js';
import { profileDurationMs, profileNodes } from '../../mcp-server/src/ops/window-profileload.js';
import { RecordingTarget } from '../helpers/recording-target.js';

const fx = (name: string) => readFileSync(new URL(`../fixtures/nodetool-toppartitions/${name}`, import.meta.url), 'utf8');
const samplersOf = (text: string): TopPartitions['samplers'] => {
  const p = parseToppartitions(text);
  if (!p.ok) throw new Error(p.reason);
  return p.value.samplers;
};
const NODE = '127.0.36.1';

describe('table.hot-partition on the recorded 5.0.9 outputs (90 % of a latte load on key 42)', () => {
  it("fires on h3hot.kv key 42, with its share of the table's window rate, counts and node", () => {
    const input: HotPartitionInput = {
      durationMs: 5000,
      nodes: [{ node: NODE, durationMs: 5000, samplers: samplersOf(fx('5.0-profileload-hot-key.txt')) }],
      // The window's local counters for the table on that node (reads ~ the sampled 492/s, writes a bit more).
      tableRates: { [NODE]: [{ table: 'h3hot.kv', readsPerS: 500, writesPerS: 480 }] },
    };
    const o = hotPartitionOutcome(input);
    expect(o.checked).toBe(true);
    expect(o.findings).toHaveLength(1);
    const f = o.findings[0]!;
    expect(f).toMatchObject({ id: 'table.hot-partition', severity: 'warning', node: NODE, table: 'h3hot.kv', confidence: 'high', when: 'window' });
    expect(f.title).toBe('Hot partition on h3hot.kv: key "42" takes 98 % of its reads on 127.0.36.1');
    expect(f.evidence[0]).toContain('h3hot.kv on 127.0.36.1: key "42" had 2458 of the sampled reads in 5 s (492/s, ± 0), 98 %');
    expect(f.evidence[0]).toContain('the only key sampled');
    expect(f.evidence[1]).toContain('had 1967 of the sampled writes');
    expect(f.evidence[1]).toContain('984× the next key');
    expect(f.knowledgeIds).toEqual(['table.hot-partition', 'table.hot-partition.times-next']);
  });

  it("without the table's window rate, grades the share of the printed keys with medium confidence", () => {
    const samplers = samplersOf(fx('5.0-toppartitions-hot-key.txt'));
    const o = hotPartitionOutcome({ durationMs: 10_000, nodes: [{ node: NODE, durationMs: 10_000, samplers }] });
    expect(o.findings.map((f) => [f.table, f.confidence])).toEqual([['h3hot.kv', 'medium']]);
    expect(o.findings[0]!.evidence.join('\n')).toContain('of the printed top keys (no table rate for the window)');
  });

  it('does not fire on the uniform part of the same load (the recorded rows without key 42)', () => {
    const uniform = fx('5.0-toppartitions-hot-key.txt')
      .split('\n')
      .filter((l) => !/^\s*h3hot\.kv\s+42\s/.test(l))
      .join('\n');
    const samplers = samplersOf(uniform);
    expect(samplers.writes!.length).toBe(9);
    const o = hotPartitionOutcome({ durationMs: 10_000, nodes: [{ node: NODE, durationMs: 10_000, samplers }], tableRates: { [NODE]: [] } });
    expect(o).toMatchObject({ checked: true, findings: [] });
  });

  it("does not fire when the key is far above the next but only a small share of the table's window rate", () => {
    const samplers = samplersOf('Frequency of reads by partition:\n  Table Partition Count +/-\n  ks.t 7 1000 0\n  ks.t 8 20 0\n');
    const base = { durationMs: 5000, nodes: [{ node: NODE, durationMs: 5000, samplers }] };
    // 200/s of a table doing 2000 reads/s is 10 %: skewed, not hot.
    expect(hotPartitionOutcome({ ...base, tableRates: { [NODE]: [{ table: 'ks.t', readsPerS: 2000, writesPerS: 0 }] } }).findings).toEqual([]);
    expect(hotPartitionOutcome({ ...base, tableRates: { [NODE]: [{ table: 'ks.t', readsPerS: 250, writesPerS: 0 }] } }).findings).toHaveLength(1);
  });

  it('ignores a quiet table (under 50 sampled operations a second) and the system keyspaces', () => {
    const samplers = samplersOf('Frequency of reads by partition:\n  Table Partition Count +/-\n  ks.t 1 40 0\n  system.local local 9000 0\n');
    expect(hotPartitionOutcome({ durationMs: 1000, nodes: [{ node: NODE, durationMs: 1000, samplers }] })).toMatchObject({ checked: true, findings: [] });
  });
});

describe('table.hot-partition: not checked, never a false "no hot partition"', () => {
  it('says why when there is no window, the window is short, or the sampler failed on every node', () => {
    expect(hotPartitionOutcome(undefined)).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/live diagnosis window/) });
    const short = profileDurationMs(3);
    expect(short.ms).toBeNull();
    expect(hotPartitionOutcome({ durationMs: null, nodes: [], note: 'why' in short ? short.why : '' })).toMatchObject({
      checked: false,
      skippedBecause: 'the 3 s window is too short to sample partitions (needs at least 4 s)',
    });
    const failed = hotPartitionOutcome({ durationMs: 7000, nodes: [{ node: NODE, durationMs: 7000, error: 'JMX_UNREACHABLE: connection refused' }] });
    expect(failed).toMatchObject({ checked: false, skippedBecause: `partition sample not read on ${NODE}: JMX_UNREACHABLE: connection refused` });
  });

  it("keeps a failed node's reason next to another node's finding", () => {
    const o = hotPartitionOutcome({
      durationMs: 5000,
      nodes: [
        { node: NODE, durationMs: 5000, samplers: samplersOf(fx('5.0-profileload-hot-key.txt')) },
        { node: '127.0.36.2', durationMs: 5000, error: 'nodetool profileload printed no "Frequency of … by partition" section' },
      ],
    });
    expect(o.findings).toHaveLength(1);
    expect(o.skippedBecause).toContain('127.0.36.2: nodetool profileload printed no');
  });
});

describe('table.hot-partition: the key is cluster data', () => {
  it('escapes control, bidi and quote characters and caps the length', () => {
    expect(printableKey('a"b\\c\u001b[31m\u202eX\u0000')).toBe('"a\\"b\\\\c\\u001b[31m\\u202eX\\u0000"');
    expect(printableKey('k'.repeat(500)).length).toBeLessThan(130);
  });

  it('a hostile key in the output never reaches title or evidence raw', () => {
    const hostile = 'x\u001b]8;;http://evil\u0007click\u202e';
    const text = `Frequency of writes by partition:\n  Table Partition Count +/-\n  ks.t ${hostile} 900 0\n  ks.t 2 3 0\n`;
    const o = hotPartitionOutcome({ durationMs: 5000, nodes: [{ node: NODE, durationMs: 5000, samplers: samplersOf(text) }] });
    expect(o.findings).toHaveLength(1);
    const all = JSON.stringify([o.findings[0]!.title, o.findings[0]!.evidence]);
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    expect(o.findings[0]!.title + o.findings[0]!.evidence.join('')).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(all).toContain('\\\\u001b]8;;http://evil\\\\u0007click\\\\u202e');
  });
});

describe('profileload: fixed argv, run by diagnose only', () => {
  it('builds exactly -a READS,WRITES -k 10 <ms>, no keyspace, a bounded whole duration', () => {
    const r = buildNodetoolArgs({ subcommand: 'profileload', host: '127.0.36.1', port: 7199, durationMs: 7000 });
    expect(r).toEqual({
      ok: true,
      subcommand: 'profileload',
      connectionArgs: ['-h', '127.0.36.1', '-p', '7199'],
      commandArgs: ['profileload', '-a', 'READS,WRITES', '-k', '10', '7000'],
    });
    for (const durationMs of [undefined, 0, 999, 10_001, 1500.5, Number.NaN, -5]) {
      const r2 = buildNodetoolArgs({ subcommand: 'profileload', host: '127.0.0.1', port: 7199, ...(durationMs === undefined ? {} : { durationMs }) });
      expect(r2, String(durationMs)).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    }
    const withKs = buildNodetoolArgs({ subcommand: 'profileload', host: '127.0.0.1', port: 7199, durationMs: 5000, keyspace: 'ks' });
    expect(withKs).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
    expect(buildNodetoolArgs({ subcommand: 'tpstats', host: '127.0.0.1', port: 7199, durationMs: 5000 })).toMatchObject({ ok: false, code: 'BAD_ARGUMENTS' });
  });

  it('is on the allow-list but not offered by the MCP nodetool tool', () => {
    expect(NODETOOL_SUBCOMMANDS).toContain('profileload');
    expect(NODETOOL_TOOL_SUBCOMMANDS).not.toContain('profileload');
    const p = nodetoolInputSchema.safeParse({ subcommand: 'profileload' });
    expect(p.success).toBe(false);
    const why = 'samples every table for several seconds: diagnose runs it once per node inside its window';
    expect(p.error?.issues[0]?.message).toBe(`profileload is not run by this tool: it ${why}`);
  });

  it('runs through the nodetool runner and a Target with that argv, the node as credential host, and reads the sample', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-hot-'));
    const fake = join(dir, 'nodetool');
    writeFileSync(fake, '#!/bin/sh\nexit 99\n', { mode: 0o755 });
    const t = new RecordingTarget(() => ({ stdout: fx('5.0-profileload-hot-key.txt') }), 'ssh');
    const [s] = await profileNodes([{ node: '10.0.0.5', jmxHost: '127.0.0.1', jmxPort: 7199, target: t }], 7000, { nodetoolPath: fake });
    expect(t.calls[0]!.argv.slice(1)).toEqual(['-h', '127.0.0.1', '-p', '7199', 'profileload', '-a', 'READS,WRITES', '-k', '10', '7000']);
    expect(t.calls[0]!.opts.timeoutMs).toBe(27_000);
    expect(s!.samplers?.reads?.[0]).toEqual({ table: 'h3hot.kv', partition: '42', count: 2458, error: 0 });
  });

  it("a failing or empty sampler becomes the node's reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-hot-'));
    const fake = join(dir, 'nodetool');
    writeFileSync(fake, '#!/bin/sh\nexit 99\n', { mode: 0o755 });
    const empty = new RecordingTarget(() => ({ stdout: '' }), 'ssh');
    const stderr = "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused'.\n";
    const refused = new RecordingTarget(() => ({ exitCode: 1, stderr }), 'ssh');
    const out = await profileNodes(
      [
        { node: '10.0.0.5', jmxHost: '127.0.0.1', jmxPort: 7199, target: empty },
        { node: '10.0.0.6', jmxHost: '127.0.0.1', jmxPort: 7199, target: refused },
      ],
      7000,
      { nodetoolPath: fake },
    );
    expect(out[0]).toMatchObject({ node: '10.0.0.5', error: 'nodetool profileload output not read: empty output' });
    expect(out[1]).toMatchObject({ node: '10.0.0.6', error: expect.stringMatching(/^JMX_UNREACHABLE/) });
    expect(out.every((o) => o.samplers === undefined)).toBe(true);
  });

  it('samples min(window, 10 s) less a 3 s start-up margin', () => {
    expect(profileDurationMs(10)).toEqual({ ms: 7000 });
    expect(profileDurationMs(600)).toEqual({ ms: 7000 });
    expect(profileDurationMs(5)).toEqual({ ms: 2000 });
  });
});

describe('table.hot-partition leads the latency on its node and table', () => {
  it('chains a p99 finding of the same table and node under it', () => {
    const samplers = samplersOf(fx('5.0-profileload-hot-key.txt'));
    const hot = hotPartitionOutcome({ durationMs: 5000, nodes: [{ node: NODE, durationMs: 5000, samplers }] }).findings[0]!;
    const latency: Finding = {
      id: 'latency.read-p99',
      severity: 'warning',
      title: 'Read p99 120 ms on h3hot.kv',
      evidence: ['p99 120 ms'],
      node: NODE,
      table: 'h3hot.kv',
      recommendation: '',
      knowledgeIds: [],
      confidence: 'high',
    };
    const out = chainFindings([latency, hot]);
    expect(out).toHaveLength(1);
    expect(out[0]!.id).toBe('table.hot-partition');
    expect(out[0]!.chain?.effects.map((e) => e.id)).toEqual(['latency.read-p99']);
  });
});
