import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allKnowledge,
  appliesTo,
  compareVersionText,
  compareVersions,
  oldestVersion,
  hasKnowledge,
  knowledge,
  knowledgeFor,
  numberOf,
  parseRange,
  parseVersion,
  rangesOverlap,
  threshold,
  valueOf,
  versionInRange,
  type KnowledgeEntry,
  type KnowledgeId,
} from '../../mcp-server/src/core/knowledge/index.js';

describe('knowledge look-ups', () => {
  it('returns an entry by id and throws a clear error for an unknown id', () => {
    expect(knowledge('jvm.gc.pause').unit).toBe('ms');
    // Ids that come from data (a bundle, a cited id) are strings: the look-up still refuses unknown ones at run time.
    const fromData = (id: string) => id as KnowledgeId;
    expect(() => knowledge(fromData('jvm.gc.pauses'))).toThrow(/unknown id "jvm\.gc\.pauses".*jvm\.gc\.pause/);
    expect(() => knowledge(fromData('nothing.here'))).toThrow(/unknown id "nothing\.here"/);
    expect(hasKnowledge('jvm.gc.pause')).toBe(true);
    expect(hasKnowledge('jvm.gc.pauses')).toBe(false);
  });

  it('threshold() defaults the direction and refuses entries without thresholds', () => {
    expect(threshold('jvm.gc.pause')).toEqual({ warning: 200, critical: 1000, direction: 'above' });
    expect(threshold('cache.key.hit-ratio').direction).toBe('below');
    expect(threshold('topology.schema-agreement')).toEqual({ warning: 2, direction: 'above' });
    expect(() => threshold('compaction.throughput.default')).toThrow(/has no thresholds/);
    expect(() => threshold('trap.nodetool.gcstats-reclaimed-bytes')).toThrow(/has no thresholds/);
  });

  it('valueOf() and numberOf() read values and refuse the rest', () => {
    expect(valueOf('compaction.throughput.default')).toBe(64);
    expect(numberOf('cache.min-requests')).toBe(1000);
    expect(valueOf('os.thp-defrag')).toBe('never');
    expect(() => numberOf('os.thp-defrag')).toThrow(/string value, not a number/);
    expect(() => valueOf('jvm.gc.pause')).toThrow(/has no value/);
    expect(() => valueOf('no.such.id' as KnowledgeId)).toThrow(/unknown id/);
  });

  it('holds the entries frozen and sorted by id', () => {
    const ids = allKnowledge().map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
    const e = knowledge('jvm.gc.pause');
    expect(Object.isFrozen(e)).toBe(true);
    expect(Object.isFrozen(e.appliesTo)).toBe(true);
    expect(() => {
      (e as { unit?: string }).unit = 's';
    }).toThrow(TypeError);
  });
});

describe('version matcher', () => {
  it.each([
    // [version, range, expected]
    ['4.1.10', '*', true],
    ['2024.1.3', '*', true],
    ['4.1.10', '4.1', true],
    ['4.1', '4.1', true],
    ['4.10.0', '4.1', false],
    ['4.2.0', '4.1', false],
    ['4.0.19', '4.1', false],
    ['4.1.3', '4.1.x', true],
    ['4.1.3', '4', true],
    ['5.0.0', '4', false],
    ['4.1.3', '=4.1', true],
    ['4.0.11', '>=4.0 <5.0', true],
    ['4.0', '>=4.0 <5.0', true],
    ['5.0.9', '>=4.0 <5.0', false],
    ['3.11.17', '>=4.0 <5.0', false],
    ['5.0-beta1', '<5.0', false],
    ['5.0-beta1', '>=5.0', true],
    ['4.0.0-SNAPSHOT', '>=4.0', true],
    ['6.0-alpha2', '>=5.0', true],
    ['4.1.9', '<=4.1', true],
    ['4.2.0', '<=4.1', false],
    ['4.1.9', '>4.1', false],
    ['4.2.0', '>4.1', true],
    ['4.0.12', '>4.0.11', true],
    ['4.0.11', '>4.0.11', false],
    ['2024.1.3', '>=2024.1', true],
    ['2023.1.11', '>=2024.1', false],
    ['6.2.0', '>=2024.1', false],
    ['6.2.0-0.20241013.b8a9fd4908c7', '>=6.0 <7.0', true],
    ['2025.1.0~rc1', '2025.1', true],
    ['3.11.17', '<4.0 || >=5.0', true],
    ['4.1.0', '<4.0 || >=5.0', false],
    ['5.0.2', '<4.0 || >=5.0', true],
    ['ReleaseVersion: 4.1.10', '4.1', true],
  ])('%s in "%s" → %s', (version, range, expected) => {
    expect(versionInRange(version, range)).toBe(expected);
  });

  it('parses versions and compares them part by part', () => {
    expect(parseVersion('4.1.10')).toEqual([4, 1, 10]);
    expect(parseVersion('no digits')).toBeNull();
    expect(compareVersions([4, 0], [4, 0, 0])).toBe(0);
    expect(compareVersions([4, 10], [4, 9, 99])).toBe(1);
    expect(compareVersions([2024, 1], [6, 2])).toBe(1);
  });

  it('rejects malformed ranges and unreadable versions with the offending text', () => {
    expect(() => parseRange('')).toThrow(/empty/);
    expect(() => parseRange('>=4.0 banana')).toThrow(/cannot read "banana"/);
    expect(() => parseRange('>=4.0 ||')).toThrow(/empty alternative/);
    expect(() => parseRange('=>4.0')).toThrow(/cannot read "=>4\.0"/);
    expect(() => parseRange('4.1.2.3.4')).toThrow(/cannot read/);
    expect(() => versionInRange('unknown', '*')).toThrow(/cannot read a version/);
  });

  it.each([
    ['<4.0', '>=4.0', false],
    ['>=4.0', '4.1', true],
    ['*', '<4.0', true],
    ['4.0', '4.1', false],
    ['<=4.1', '4.1.3', true],
    ['<4.1', '4.1', false],
    ['>=2024.1', '<6.0', false],
    ['>=4.0 <5.0', '>=4.1', true],
    ['>=4.0 <4.1', '>=4.1', false],
    ['<4.0 || >=5.0', '4.1', false],
    ['<4.0 || >=5.0', '5.0', true],
    ['>4.0', '4.0', false],
    ['>4.0', '4.1', true],
  ])('rangesOverlap("%s", "%s") → %s', (a, b, expected) => {
    expect(rangesOverlap(a, b)).toBe(expected);
    expect(rangesOverlap(b, a)).toBe(expected);
  });
});

describe('appliesTo', () => {
  const entry: KnowledgeEntry = {
    id: 'test.entry',
    statement: 'x',
    value: 1,
    appliesTo: [
      { product: 'cassandra', versions: '>=4.0 <5.0' },
      { product: 'scylla', versions: '>=2024.1' },
    ],
    sources: [{ title: 't', url: 'https://example.org' }],
    rationale: 'r',
  };

  it('matches product and version', () => {
    expect(appliesTo(entry, 'cassandra', '4.1.10')).toBe(true);
    expect(appliesTo(entry, 'cassandra', '5.0.9')).toBe(false);
    expect(appliesTo(entry, 'scylla', '2024.2.1')).toBe(true);
    expect(appliesTo(entry, 'scylla', '6.2.0')).toBe(false);
    expect(appliesTo(entry, 'dse', '6.8.25')).toBe(false);
  });

  it('answers for the product alone when the version is unknown', () => {
    expect(appliesTo(entry, 'cassandra', null)).toBe(true);
    expect(appliesTo(entry, 'cassandra', undefined)).toBe(true);
    expect(appliesTo(entry, 'cassandra', 'unknown')).toBe(true);
    expect(appliesTo(entry, 'dse', null)).toBe(false);
  });

  it('picks the version-specific default from the real entries', () => {
    const on311 = knowledgeFor('cassandra', '3.11.17').map((e) => e.id);
    const on41 = knowledgeFor('cassandra', '4.1.10').map((e) => e.id);
    expect(on311).toContain('compaction.throughput.default-pre-4.0');
    expect(on311).not.toContain('compaction.throughput.default');
    expect(on41).toContain('compaction.throughput.default');
    expect(on41).not.toContain('compaction.throughput.default-pre-4.0');
    expect(on41).toContain('trap.nodetool.getstreamthroughput-d-flag');
    expect(knowledgeFor('cassandra', '4.0.11').map((e) => e.id)).not.toContain('trap.nodetool.getstreamthroughput-d-flag');
    expect(appliesTo(knowledge('trap.scylla.compactionstats-pending'), 'cassandra', '4.1.10')).toBe(false);
  });
});

describe('one version comparison for the whole code base', () => {
  it('compares by number, part by part, and says when a string holds no version', () => {
    expect(compareVersionText('4.1.10', '4.1.9')).toBeGreaterThan(0);
    expect(compareVersionText('6.2.3', '2025.1.0')).toBeLessThan(0);
    expect(compareVersionText('5.0-beta1', '5.0.0')).toBe(0);
    expect(compareVersionText('4.0', '4.0.0')).toBe(0);
    expect(compareVersionText('unknown', '4.0')).toBeNull();
    expect(oldestVersion(['2025.1.2', '6.2.3', '?', '2025.1.0'])).toBe('6.2.3');
    expect(oldestVersion(['?'])).toBeUndefined();
  });

  it('is the only one: no other module defines its own version comparator', () => {
    const root = join(__dirname, '../../mcp-server/src');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('knowledge/index.ts')) {
          if (/function\s+\w*(?:compare|cmp)\w*Version\w*\s*\(|Version\w*\s*=\s*\(a: string, b: string\)/i.test(readFileSync(p, 'utf8'))) offenders.push(p);
        }
      }
    };
    walk(root);
    // migration/common.ts's cmpVersion only narrows compareVersionText's null to an error for its callers.
    expect(offenders.map((p) => p.slice(root.length + 1))).toEqual(['core/migration/common.ts']);
  });
});
