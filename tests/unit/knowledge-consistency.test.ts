/**
 * The knowledge pack agrees with itself: no setting gets two values for the same product and versions (checked on
 * the real pack and shown to fire on built contradictions), the pack still covers what issue #7 asks for, and the
 * coverage table in knowledge/README.md matches the YAML.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../../mcp-server/src/core/knowledge/entries.generated.js';
import { appliesTo, hasKnowledge, rangesOverlap } from '../../mcp-server/src/core/knowledge/index.js';
import type { KnowledgeEntry } from '../../mcp-server/src/core/knowledge/types.js';
// The coverage script is plain JS so it runs with bare node; its pure parts are tested here.
import { BEGIN, END, README, loadTopics, readmeTable, renderCoverage, replaceReadmeTable } from '../../scripts/knowledge-coverage.mjs';

/** One entry's claim about a setting: its value, or a threshold that equals the setting's default. */
interface Claim {
  id: string;
  setting: string;
  value: unknown;
  unit: string | undefined;
  appliesTo: KnowledgeEntry['appliesTo'];
}

const SETTING_TAG = /^setting:([^=]+)(?:=(warning|critical))?$/;

/** Every contradiction between entries' `setting:` tags, as readable sentences (empty = consistent). */
function settingConflicts(entries: readonly KnowledgeEntry[]): string[] {
  const claims: Claim[] = [];
  const problems: string[] = [];
  for (const e of entries) {
    for (const tag of e.tags ?? []) {
      const m = SETTING_TAG.exec(tag);
      if (!m?.[1]) continue;
      const which = m[2] as 'warning' | 'critical' | undefined;
      const value = which ? e.thresholds?.[which] : e.value;
      if (value === undefined) {
        problems.push(`${e.id}: tag "${tag}" but the entry has no ${which ? `thresholds.${which}` : 'value'}`);
        continue;
      }
      claims.push({ id: e.id, setting: m[1], value, unit: e.unit, appliesTo: e.appliesTo });
    }
  }
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      const a = claims[i]!;
      const b = claims[j]!;
      if (a.setting !== b.setting || a.id === b.id) continue;
      if (a.value === b.value && a.unit === b.unit) continue;
      for (const x of a.appliesTo) {
        for (const y of b.appliesTo) {
          if (x.product === y.product && rangesOverlap(x.versions, y.versions)) {
            problems.push(
              `setting ${a.setting}: ${a.id} says ${String(a.value)} ${a.unit ?? ''} and ${b.id} says ${String(b.value)} ${b.unit ?? ''} for ${x.product} "${x.versions}" / "${y.versions}"`,
            );
          }
        }
      }
    }
  }
  return problems;
}

function entry(id: string, over: Partial<KnowledgeEntry>): KnowledgeEntry {
  return {
    id,
    statement: 's',
    appliesTo: [{ product: 'cassandra', versions: '*' }],
    sources: [{ title: 't', url: 'https://example.org' }],
    rationale: 'r',
    ...over,
  };
}

describe('settings do not contradict each other', () => {
  it('holds for the real pack', () => {
    expect(settingConflicts(ENTRIES)).toEqual([]);
  });

  it('the pack really makes setting claims, across several topics (the check has something to check)', () => {
    const tagged = ENTRIES.filter((e) => (e.tags ?? []).some((t) => SETTING_TAG.test(t)));
    expect(tagged.length).toBeGreaterThan(25);
    // Version splits are two entries with disjoint ranges for one setting — the case the check must allow.
    const chunk = ENTRIES.filter((e) => e.tags?.includes('setting:chunk_length_in_kb')).map((e) => e.id);
    expect(chunk.sort()).toEqual(['table.compression.chunk-length.default', 'table.compression.chunk-length.default-pre-4.0']);
    expect(settingConflicts(ENTRIES.filter((e) => chunk.includes(e.id)))).toEqual([]);
  });

  it('fires when two entries give one setting different values for overlapping versions', () => {
    const a = entry('x.new', { value: 64, unit: 'MiB/s', tags: ['setting:compaction_throughput'], appliesTo: [{ product: 'cassandra', versions: '>=4.0' }] });
    const b = entry('x.old', {
      value: 16,
      unit: 'MiB/s',
      tags: ['setting:compaction_throughput'],
      appliesTo: [{ product: 'cassandra', versions: '>=3.0 <4.1' }],
    });
    const problems = settingConflicts([a, b]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('setting compaction_throughput: x.new says 64');
    expect(problems[0]).toContain('x.old says 16');
  });

  it('fires when a real entry is contradicted by a made-up one', () => {
    const real = ENTRIES.find((e) => e.id === 'datamodel.gc-grace-seconds.default')!;
    const rogue = entry('x.gc-grace', {
      value: 86400,
      unit: 's',
      tags: ['setting:gc_grace_seconds'],
      appliesTo: [{ product: 'scylla', versions: '>=2025.1' }],
    });
    expect(settingConflicts([real, rogue])).toHaveLength(1);
  });

  it('compares thresholds tagged =warning/=critical with values, and catches a unit mismatch', () => {
    const t = entry('x.t', { thresholds: { warning: 1000, critical: 100000 }, tags: ['setting:tombstone_warn_threshold=warning'] });
    const v = entry('x.v', { value: 500, tags: ['setting:tombstone_warn_threshold'] });
    expect(settingConflicts([t, v])).toHaveLength(1);
    const sameNumberOtherUnit = [entry('x.a', { value: 16, unit: 'KiB', tags: ['setting:s'] }), entry('x.b', { value: 16, unit: 'MiB', tags: ['setting:s'] })];
    expect(settingConflicts(sameNumberOtherUnit)).toHaveLength(1);
  });

  it('allows disjoint versions, other products and equal values', () => {
    const disjoint = [
      entry('x.a', { value: 64, tags: ['setting:s'], appliesTo: [{ product: 'cassandra', versions: '>=4.0' }] }),
      entry('x.b', { value: 16, tags: ['setting:s'], appliesTo: [{ product: 'cassandra', versions: '<4.0' }] }),
    ];
    const products = [
      entry('x.c', { value: 1, tags: ['setting:p'], appliesTo: [{ product: 'cassandra', versions: '*' }] }),
      entry('x.d', { value: 2, tags: ['setting:p'], appliesTo: [{ product: 'scylla', versions: '*' }] }),
    ];
    const equal = [entry('x.e', { value: 'T4', tags: ['setting:q'] }), entry('x.f', { value: 'T4', tags: ['setting:q'] })];
    expect(settingConflicts([...disjoint, ...products, ...equal])).toEqual([]);
  });

  it('refuses a setting tag on an entry that has nothing to compare', () => {
    expect(settingConflicts([entry('x.fact', { tags: ['setting:s'] })])).toEqual(['x.fact: tag "setting:s" but the entry has no value']);
    expect(settingConflicts([entry('x.thr', { value: 3, tags: ['setting:s=critical'] })])).toEqual([
      'x.thr: tag "setting:s=critical" but the entry has no thresholds.critical',
    ]);
  });
});

describe('the pack covers what issue #7 asks for', () => {
  // Ids a rule, skill or reviewer relies on for each topic of the issue; deleting or renaming one fails here.
  const REQUIRED: Record<string, string[]> = {
    'JVM and GC': [
      'config.jvm.heap-ram-ratio',
      'jvm.heap.compressed-oops',
      'config.jvm.heap-oops-dead-zone',
      'jvm.gc.g1-default',
      'jvm.gc.zgc-jdk17',
      'jvm.gc.zgc-vs-g1-benchmark',
      'jvm.gc.shenandoah',
      'config.jvm.always-pre-touch',
      'jvm.transparent-huge-pages',
      'config.jvm.numa',
      'jvm.instance-size',
    ],
    compaction: [
      'compaction.strategy.default',
      'compaction.stcs.large-data',
      'compaction.lcs.free-space',
      'compaction.strategy.twcs',
      'compaction.ucs.scaling-parameters',
      'compaction.ucs.in-place-switch',
      'compaction.scylla.ics',
      'compaction.throughput.default',
      'compaction.throughput.default-pre-4.0',
      'compaction.concurrent-compactors',
      'table.compression.chunk-length.default',
      'table.compression.chunk-length.default-pre-4.0',
    ],
    'thread pools and caches': ['threadpool.pending', 'threadpool.concurrent-reads.default', 'cache.key.hit-ratio', 'cache.row.default', 'cache.chunk.default'],
    'data model': ['table.partition-size', 'table.tombstones-per-read', 'datamodel.gc-grace-seconds.default', 'datamodel.ttl.tombstone'],
    drivers: ['driver.scylla.shard-aware', 'driver.scylla.tablet-aware'],
    'cassandra_latest.yaml': ['latest.trie-memtable', 'latest.bti-format', 'latest.default-compaction-ucs'],
    ScyllaDB: ['scylla.reactor-stall', 'scylla.shard-per-core', 'scylla.row-cache', 'scylla.tablets'],
  };

  it.each(Object.entries(REQUIRED))('%s', (_topic, ids) => {
    expect(ids.filter((id) => !hasKnowledge(id))).toEqual([]);
  });

  it('version splits answer differently per version (chunk length 64 KiB on 3.11, 16 KiB on 4.0+)', () => {
    const chunk = ENTRIES.filter((e) => e.tags?.includes('setting:chunk_length_in_kb'));
    const on = (v: string) => chunk.filter((e) => appliesTo(e, 'cassandra', v)).map((e) => e.value);
    expect(on('3.11.17')).toEqual([64]);
    expect(on('4.0.15')).toEqual([16]);
    expect(on('5.0.9')).toEqual([16]);
  });
});

describe('knowledge/README.md coverage table', () => {
  it('matches the YAML (regenerate with node scripts/knowledge-coverage.mjs --write)', () => {
    const expected = renderCoverage(loadTopics(), appliesTo);
    expect(readmeTable(readFileSync(README, 'utf8'))).toBe(expected);
  });

  it('counts per column with the real version scoping', () => {
    const table = renderCoverage(loadTopics(), appliesTo);
    const row = table.split('\n').find((l) => l.startsWith('| `cassandra-latest` |'));
    // cassandra_latest.yaml exists only from 5.0, and only for Cassandra.
    expect(
      row
        ?.split('|')
        .map((c) => c.trim())
        .slice(2, 8),
    ).toEqual(['—', '—', '—', '5', '—', '—']);
  });

  it('goes stale when an entry is added, and the markers are required', () => {
    const topics = loadTopics();
    const before = renderCoverage(topics, appliesTo);
    const extra = entry('x.extra', { appliesTo: [{ product: 'scylla', versions: '*' }] });
    const grown = topics.map((t) => (t.topic === 'scylla' ? { ...t, entries: [...t.entries, extra] } : t));
    expect(renderCoverage(grown, appliesTo)).not.toBe(before);
    expect(readmeTable('no markers here')).toBeNull();
    expect(() => replaceReadmeTable('no markers here', before)).toThrow(/coverage markers/);
    const doc = `intro\n${BEGIN}\nold\n${END}\noutro\n`;
    expect(readmeTable(replaceReadmeTable(doc, before))).toBe(before);
  });
});
