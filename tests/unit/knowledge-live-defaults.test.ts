/**
 * Defaults checked against the real thing (issue #17): every entry that states a Cassandra default through a
 * `setting:<name>` tag is compared with `system_views.settings` read from a real 4.1.10 and 5.0.9 node
 * (tests/fixtures/lab/<scenario>/node1/vt-system_views.settings.tsv, captured by scripts/capture-lab-fixtures.mjs
 * from `cql-tuner lab start`; see tests/fixtures/lab/README.md). JVM-flag claims are checked by starting the
 * installed JDK with the flag.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ENTRIES } from '../../mcp-server/src/core/knowledge/entries.generated.js';
import { appliesTo, numberOf, threshold, valueOf } from '../../mcp-server/src/core/knowledge/index.js';
import type { KnowledgeEntry } from '../../mcp-server/src/core/knowledge/types.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { renderCassandraYaml } from '../../mcp-server/src/lab/config-files.js';

const LAB = join(__dirname, '..', 'fixtures', 'lab');

interface Capture {
  version: string;
  settings: Map<string, string>;
  heapMiB: number;
  cpus: number;
}

function capture(scenario: string): Capture {
  const dir = join(LAB, scenario);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cassandraVersion: string; machine: { cpus: number } };
  const table = parseTsv(readFileSync(join(dir, 'node1', 'vt-system_views.settings.tsv'), 'utf8'));
  if (!table.ok) throw new Error(`${scenario}: settings capture does not parse`);
  const settings = new Map<string, string>();
  for (const row of table.value.rows) if (row.name) settings.set(row.name, row.value ?? '');
  const info = readFileSync(join(dir, 'node1', 'nodetool-info.txt'), 'utf8');
  const heap = /Heap Memory \(MB\)\s*:\s*[\d.]+\s*\/\s*([\d.]+)/.exec(info);
  if (!heap?.[1]) throw new Error(`${scenario}: no heap size in nodetool-info.txt`);
  return { version: manifest.cassandraVersion, settings, heapMiB: Number(heap[1]), cpus: manifest.machine.cpus };
}

const CAPTURES = [capture('cassandra-4.1-1node'), capture('cassandra-5.0-1node')];

/** Keys the lab writes into its cassandra.yaml: the node reports the lab's value, not Cassandra's default. */
const LAB_SET = new Set(Object.keys(parseYaml(renderCassandraYaml({ version: '5.0', host: '127.0.0.1', nodeDir: '/x' })) as object));

/** A number with a unit as Cassandra prints it (5000ms, 1s, 3h, 24MiB/s, 1024KiB) in base units, or null. */
function liveQuantity(v: string): { n: number; kind: 'duration' | 'storage' | 'rate' } | null {
  const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|B|KiB|MiB|GiB|B\/s|KiB\/s|MiB\/s)$/.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const ms: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const bytes: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
  const u = m[2]!;
  if (u in ms) return { n: n * ms[u]!, kind: 'duration' };
  if (u.endsWith('/s')) return { n: n * bytes[u.slice(0, -2)]!, kind: 'rate' };
  return { n: n * bytes[u]!, kind: 'storage' };
}

/** An entry's claimed value in the same base units, from its value (or threshold) and unit. */
function claimedQuantity(value: number, unit: string | undefined): { n: number; kind: 'duration' | 'storage' | 'rate' } | null {
  const u = (unit ?? '').split(' ')[0] ?? '';
  const table: Record<string, [number, 'duration' | 'storage' | 'rate']> = {
    ms: [1, 'duration'],
    s: [1000, 'duration'],
    h: [3_600_000, 'duration'],
    KiB: [1024, 'storage'],
    MiB: [1024 ** 2, 'storage'],
    GiB: [1024 ** 3, 'storage'],
    'KiB/s': [1024, 'rate'],
    'MiB/s': [1024 ** 2, 'rate'],
  };
  const t = table[u];
  return t ? { n: value * t[0], kind: t[1] } : null;
}

/**
 * Defaults that Cassandra computes from the machine ("auto"): the entry's formula, evaluated with the captured
 * node's heap and CPUs, must give what the node reports. Keyed by entry id.
 */
const FORMULAS: Record<string, (c: Capture) => string> = {
  'cache.key.default-size': (c) => `${Math.min(Math.max(1, Math.floor(c.heapMiB * 0.05)), 100)}MiB`,
  'cache.counter.default-size': (c) => `${Math.min(Math.max(1, Math.floor(c.heapMiB * 0.025)), 50)}MiB`,
  // min(8, max(2, min(cores, data directories))); the lab has one data directory.
  'compaction.concurrent-compactors': (c) => String(Math.min(8, Math.max(2, Math.min(c.cpus, 1)))),
  'repair.concurrent-validations.default': (c) => String(Math.min(8, Math.max(2, Math.min(c.cpus, 1)))),
  'repair.session-space.default': (c) => `${Math.max(1, Math.floor(c.heapMiB / 16))}MiB`,
  'memtable.heap-space.default': (c) => `${Math.floor(c.heapMiB / 4)}MiB`,
  'memtable.offheap-space.default': (c) => `${Math.floor(c.heapMiB / 4)}MiB`,
  'memtable.flush-writers.default': () => '2', // one data directory
  'native-transport.in-flight-bytes.default': (c) => `${Math.floor((c.heapMiB * 1024 * 1024) / 10)}B`,
  'native-transport.in-flight-bytes-per-ip.default': (c) => `${Math.floor((c.heapMiB * 1024 * 1024) / 40)}B`,
};

/**
 * Setting tags that name something other than a cassandra.yaml key of the node (OS, table options, ScyllaDB),
 * each with the reason it is not in system_views.settings. An untagged name that is missing from the capture fails.
 */
const NOT_NODE_SETTINGS: Record<string, string> = {
  chunk_length_in_kb: 'table option (compression), not in system_views.settings',
  bloom_filter_fp_chance: 'table option',
  gc_grace_seconds: 'table option',
  min_threshold: 'table compaction option',
  fanout_size: 'table compaction option (LCS)',
  sstable_size_in_mb: 'table compaction option (LCS)',
  scaling_parameters: 'table compaction option (UCS)',
  target_sstable_size: 'table compaction option (UCS)',
  speculative_retry: 'table option',
  read_repair: 'table option',
  default_time_to_live: 'table option',
  tombstone_gc: 'ScyllaDB table option',
  compaction_window_size: 'table compaction option (TWCS)',
  sstable_growth: 'table compaction option (UCS)',
  scheduler: 'OS: block device I/O scheduler',
  read_ahead_kb: 'OS: block device read-ahead',
  rotational: 'OS: block device flag',
  nofile: 'OS: user limit',
  nproc: 'OS: user limit',
  memlock: 'OS: user limit',
  as: 'OS: user limit',
  client_encryption_options: 'a nested section (enabled, optional, …), not one settings row',
};

interface Check {
  id: string;
  version: string;
  setting: string;
  claimed: string;
  live: string | undefined;
  ok: boolean;
  why?: string;
}

/** Compares one entry with one capture; empty when the entry makes no Cassandra setting claim for that version. */
function checkEntry(e: KnowledgeEntry, c: Capture): Check[] {
  if (!appliesTo(e, 'cassandra', c.version)) return [];
  const out: Check[] = [];
  for (const tag of e.tags ?? []) {
    const m = /^setting:([a-z0-9_]+)(?:=(warning|critical))?$/.exec(tag);
    if (!m?.[1]) continue;
    const setting = m[1];
    if (setting in NOT_NODE_SETTINGS) continue;
    const raw = m[2] ? e.thresholds?.[m[2] as 'warning' | 'critical'] : e.value;
    const live = c.settings.get(setting);
    const base = { id: e.id, version: c.version, setting, claimed: `${String(raw)} ${e.unit ?? ''}`.trim(), live };
    if (LAB_SET.has(setting)) {
      out.push({ ...base, ok: true, why: 'set by the lab' });
      continue;
    }
    if (live === undefined) {
      out.push({ ...base, ok: false, why: `not a setting of ${c.version} (add it to NOT_NODE_SETTINGS with a reason if it is not a cassandra.yaml key)` });
      continue;
    }
    const formula = FORMULAS[e.id];
    if (formula) {
      const want = formula(c);
      out.push({ ...base, ok: live === want, why: `formula gives ${want}` });
      continue;
    }
    if (typeof raw === 'boolean' || typeof raw === 'string') {
      out.push({ ...base, ok: live === String(raw) });
      continue;
    }
    if (typeof raw !== 'number') {
      out.push({ ...base, ok: false, why: 'entry has no value to compare' });
      continue;
    }
    const lq = liveQuantity(live);
    const cq = claimedQuantity(raw, e.unit);
    if (lq && cq) out.push({ ...base, ok: lq.kind === cq.kind && Math.abs(lq.n - cq.n) < 1e-6 });
    else if (lq) out.push({ ...base, ok: false, why: `live value has a unit (${live}) but the entry's unit "${e.unit ?? ''}" is not one` });
    else out.push({ ...base, ok: Number(live) === raw });
  }
  return out;
}

const ALL = CAPTURES.flatMap((c) => ENTRIES.flatMap((e) => checkEntry(e, c)));

describe('Cassandra defaults in the pack = system_views.settings of real 4.1.10 and 5.0.9 nodes', () => {
  it('the captures are the versions they claim and hold the settings table', () => {
    expect(CAPTURES.map((c) => c.version)).toEqual(['4.1.10', '5.0.9']);
    expect(CAPTURES.map((c) => c.settings.size)).toEqual([534, 638]);
  });

  it('every compared entry agrees with the live value', () => {
    const bad = ALL.filter((c) => !c.ok).map(
      (c) => `${c.id} @${c.version}: ${c.setting} claimed ${c.claimed}, node says ${c.live ?? '(absent)'} ${c.why ?? ''}`,
    );
    expect(bad).toEqual([]);
  });

  it('compares many entries on each version, not a handful (the check has something to check)', () => {
    const compared = (v: string) => new Set(ALL.filter((c) => c.version === v && c.why !== 'set by the lab').map((c) => c.id)).size;
    expect(compared('4.1.10')).toBeGreaterThanOrEqual(55);
    expect(compared('5.0.9')).toBeGreaterThanOrEqual(55);
  });

  it('fires on a wrong default, a wrong unit and a name the node does not know', () => {
    const fake = (over: Partial<KnowledgeEntry>): KnowledgeEntry => ({
      id: 'fake.default',
      statement: 's',
      appliesTo: [{ product: 'cassandra', versions: '*' }],
      sources: [{ title: 't', url: 'https://example.org' }],
      rationale: 'r',
      ...over,
    });
    const c50 = CAPTURES[1]!;
    expect(checkEntry(fake({ value: 32, unit: 'MiB/s', tags: ['setting:compaction_throughput'] }), c50)[0]?.ok).toBe(false);
    expect(checkEntry(fake({ value: 64, unit: 'MiB', tags: ['setting:compaction_throughput'] }), c50)[0]?.ok).toBe(false);
    expect(checkEntry(fake({ value: 64, unit: 'MiB/s', tags: ['setting:compaction_throughput'] }), c50)[0]?.ok).toBe(true);
    expect(checkEntry(fake({ value: 1, unit: 's', tags: ['setting:gc_warn_threshold'] }), c50)[0]?.ok).toBe(true);
    expect(checkEntry(fake({ value: true, tags: ['setting:no_such_setting'] }), c50)[0]?.ok).toBe(false);
  });

  it('5.0 resolves disk_access_mode mmap_index_only to "standard" data access in the settings table; 4.1 auto to mmap', () => {
    expect(CAPTURES[0]!.settings.get('disk_access_mode')).toBe('mmap');
    expect(CAPTURES[1]!.settings.get('disk_access_mode')).toBe('standard');
    expect(valueOf('read-path.disk-access-mode.default')).toBe('mmap_index_only');
  });
});

// JVM-flag claims, checked by starting the installed JDK (skipped with the reason when there is no java).
const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
const jdkMajor = (() => {
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${java.stderr ?? ''}`);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
})();
const noJava = java.error !== undefined || jdkMajor === null;

function run(args: string[]): { code: number; out: string } {
  const r = spawnSync('java', [...args, '-version'], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function finalFlag(args: string[], flag: string): string | undefined {
  const text = execFileSync('java', [...args, '-XX:+PrintFlagsFinal', '-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return new RegExp(`\\s${flag}\\s+=\\s+(\\S+)`).exec(text)?.[1];
}

describe.skipIf(noJava)(`JVM-flag entries on the installed JDK${noJava ? ' (skipped: no java on PATH)' : ''}`, () => {
  it('jvm.heap.compressed-oops / config.jvm.heap-oops-dead-zone: compressed oops on at the largest recommended heap, off at 32 GiB', () => {
    const oops = numberOf('jvm.heap.compressed-oops');
    expect(finalFlag([`-Xmx${oops}g`], 'UseCompressedOops')).toBe('true');
    expect(finalFlag(['-Xmx32g'], 'UseCompressedOops')).toBe('false');
    expect(finalFlag([`-Xmx${numberOf('config.jvm.heap-oops-dead-zone')}g`], 'UseCompressedOops')).toBe('false');
  });

  it('config.jvm.cms-removed: the JVM refuses CMS from the critical JDK on', () => {
    const r = run(['-XX:+UseConcMarkSweepGC']);
    if (jdkMajor! >= threshold('config.jvm.cms-removed').critical!) {
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(/Unrecognized VM option 'UseConcMarkSweepGC'/);
    } else expect(r.code).toBe(0);
  });

  it('config.jvm.jdk8-gc-log-flags-removed: JDK 8 GC-log flags stop the JVM from JDK 9; PrintGCDetails and -Xloggc are aliases', () => {
    expect(jdkMajor!).toBeGreaterThanOrEqual(numberOf('config.jvm.jdk8-gc-log-flags-removed'));
    for (const f of [
      '-XX:+PrintGCDateStamps',
      '-XX:+PrintGCTimeStamps',
      '-XX:+PrintGCApplicationStoppedTime',
      '-XX:+PrintHeapAtGC',
      '-XX:+PrintTenuringDistribution',
      '-XX:+UseGCLogFileRotation',
      '-XX:NumberOfGCLogFiles=5',
      '-XX:GCLogFileSize=10M',
    ]) {
      const r = run([f]);
      expect(r.code, f).not.toBe(0);
      expect(r.out, f).toMatch(/Unrecognized VM option/);
    }
    expect(run(['-XX:+PrintGCDetails']).code).toBe(0);
  });

  it('config.jvm.zgc-production: ZGC starts without -XX:+UnlockExperimentalVMOptions from that JDK on', () => {
    const r = run(['-XX:+UseZGC']);
    expect(r.code === 0).toBe(jdkMajor! >= numberOf('config.jvm.zgc-production'));
  });

  it('config.jvm.max-gc-pause-millis: the JVM default pause target is 200 ms (what G1 uses when Cassandra sets none)', () => {
    expect(Number(finalFlag(['-XX:+UseG1GC'], 'MaxGCPauseMillis'))).toBe(200);
  });
});
