import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseIoProperties } from '../../mcp-server/src/core/parse/storage/index.js';
import { ioPropertiesRules, SCYLLA_DEFAULT_DIRS } from '../../mcp-server/src/core/rules/storage.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { inspectStorage } from '../../mcp-server/src/ops/storage.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const dir = join(FIXTURES_DIR, 'storage', 'io-properties');
const sample = (n: string) => readFileSync(join(dir, n), 'utf8');
const ioIds = (ids: string[]) => ids.filter((i) => /io-properties|iotune/.test(i)).sort();

describe('io_properties.yaml / iotune findings through interpret', () => {
  it('a clean scylla_io_setup model: every io check ran, nothing to report', () => {
    const r = interpretText(sample('healthy-raid0.yaml'));
    expect(r.kind).toBe('storage.io-properties');
    expect(r.findings).toEqual([]);
  });

  it('a hand-edited file: duplicate entry, missing write_bandwidth, no commit log entry, write IOPS above read IOPS', () => {
    const r = interpretText(sample('hand-edited.yaml'));
    expect(r.kind).toBe('storage.io-properties');
    const by = Object.fromEntries(r.findings.map((f) => [f.id, f]));
    expect(ioIds(Object.keys(by))).toEqual([
      'storage.io-properties-duplicate',
      'storage.io-properties-incomplete',
      'storage.io-properties-missing-mount',
      'storage.iotune-write-above-read',
    ]);
    expect(by['storage.io-properties-duplicate']!.title).toBe('/var/lib/scylla/data is described more than once in io_properties.yaml');
    expect(by['storage.io-properties-incomplete']!.evidence[0]).toMatch(/read_bandwidth 571473920, write_iops 85000, write_bandwidth —/); // 545M parsed
    // Only the commit log is uncovered: the data directory has (two) entries; the default paths are assumed.
    expect(by['storage.io-properties-missing-mount']!.title).toBe(
      'No io_properties entry covers the commit log directory /var/lib/scylla/commitlog (ScyllaDB default path assumed)',
    );
    expect(by['storage.io-properties-missing-mount']!.confidence).toBe('medium');
    expect(by['storage.iotune-write-above-read']!.title).toBe('/var/lib/scylla/data: write IOPS 187210 exceed read IOPS 93417 (2.00×)');
    expect(by['storage.iotune-write-above-read']!.knowledgeIds).toEqual(['storage.iotune.write-above-read', 'storage.iotune.duration']);
  });

  it('iotune console output from a 30 s run: short run, deviations above 3 %, writes above reads; coverage skipped', () => {
    const p = parseIoProperties(sample('iotune-short.txt'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.durationS).toBe(30);
    expect(p.value.deviations).toEqual([
      { measurement: 'sequential write bandwidth', percent: 11 },
      { measurement: 'random write IOPS', percent: 6 },
    ]);
    expect(p.value.disks[0]).toMatchObject({ mountpoint: '/var/lib/scylla', writeBandwidth: 1921 * 1024 ** 2, readIops: 388104, writeIops: 412553 });

    const out = ioPropertiesRules(p.value, { origin: 'pasted', dirs: SCYLLA_DEFAULT_DIRS, assumedDirs: true, mounts: [] });
    const by = Object.fromEntries(out.flatMap((o) => o.findings).map((f) => [f.id, f]));
    expect(Object.keys(by).sort()).toEqual(['storage.iotune-short-run', 'storage.iotune-unstable', 'storage.iotune-write-above-read']);
    expect(by['storage.iotune-short-run']!.title).toBe('iotune ran with --duration 30 s, below its 120 s default');
    expect(by['storage.iotune-short-run']!.evidence[0]).toMatch(/each random IOPS phase ran about 3 s/);
    expect(by['storage.iotune-short-run']!.recommendation).toMatch(/about 30 minutes on an idle node/);
    expect(by['storage.iotune-unstable']!.title).toBe(
      'iotune measurements varied beyond its 3 % accuracy: sequential write bandwidth ±11 %, random write IOPS ±6 %',
    );
    expect(out.find((o) => o.rule === 'storage:io-properties-mounts')).toMatchObject({ checked: false });

    expect(
      interpretText(sample('iotune-short.txt'))
        .findings.map((f) => f.id)
        .sort(),
    ).toEqual(Object.keys(by).sort());
  });

  it('a "mountpoints" list shares one entry; an entry below 3 % deviation and default duration gives nothing', () => {
    const p = parseIoProperties(
      `disks:\n  - mountpoints:\n      - /var/lib/scylla/data\n      - /var/lib/scylla/commitlog\n    read_iops: 95000\n    read_bandwidth: 545M\n    write_iops: 85000\n    write_bandwidth: 510M\n`,
    );
    expect(p.ok && p.value.disks[0]!.mountpoints).toEqual(['/var/lib/scylla/data', '/var/lib/scylla/commitlog']);
    if (!p.ok) return;
    expect(ioPropertiesRules(p.value, { origin: 'x', dirs: SCYLLA_DEFAULT_DIRS, assumedDirs: true, mounts: [] }).flatMap((o) => o.findings)).toEqual([]);
  });
});

describe('io_properties.yaml read from a ScyllaDB host (recorded tree)', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
  /** raid0-1m with its io_properties.yaml replaced. */
  const variant = (yaml: string) => {
    const root = mkdtempSync(join(tmpdir(), 'io-props-'));
    roots.push(root);
    cpSync(join(FIXTURES_DIR, 'storage', 'raid0-1m'), root, { recursive: true });
    mkdirSync(join(root, 'etc/scylla.d'), { recursive: true });
    writeFileSync(join(root, 'etc/scylla.d/io_properties.yaml'), yaml);
    return root;
  };
  const dirs = ['data=/var/lib/scylla/data', 'commitlog=/var/lib/scylla/commitlog'];

  it('the recorded model covers /var/lib/scylla (the md0 mount): read, parsed, no io finding', async () => {
    const r = await inspectStorage({ root: join(FIXTURES_DIR, 'storage', 'raid0-1m'), product: 'scylla', dirs });
    expect(r.ioProperties?.disks.map((d) => d.mountpoint)).toEqual(['/var/lib/scylla']);
    expect(ioIds(r.findings.map((f) => f.id))).toEqual([]);
    expect(r.checked.map((c) => c.rule)).toEqual(expect.arrayContaining(['storage:io-properties-mounts', 'storage:iotune-write-read']));
  });

  it('two entries that resolve to the same mount are duplicates; an entry for another mount leaves both directories uncovered', async () => {
    const same = await inspectStorage({
      root: variant(
        sample('healthy-raid0.yaml') + sample('healthy-raid0.yaml').split('\n').slice(1).join('\n').replace('/var/lib/scylla', '/var/lib/scylla/data'),
      ),
      product: 'scylla',
      dirs,
    });
    const dup = same.findings.find((f) => f.id === 'storage.io-properties-duplicate')!;
    expect(dup.title).toBe('/var/lib/scylla is described more than once in io_properties.yaml');
    expect(dup.evidence[0]).toMatch(/entries "\/var\/lib\/scylla" and "\/var\/lib\/scylla\/data" are all on the file system mounted at \/var\/lib\/scylla/);
    expect(dup.confidence).toBe('high');

    const other = await inspectStorage({ root: variant(sample('healthy-raid0.yaml').replace('/var/lib/scylla', '/')), product: 'scylla', dirs });
    const missing = other.findings.filter((f) => f.id === 'storage.io-properties-missing-mount');
    expect(missing.map((f) => f.title)).toEqual([
      'No io_properties entry covers the data directory /var/lib/scylla/data (mounted at /var/lib/scylla)',
      'No io_properties entry covers the commit log directory /var/lib/scylla/commitlog (mounted at /var/lib/scylla)',
    ]);
    expect(missing[0]!.confidence).toBe('high');
  });

  it('a Cassandra host is not asked for io_properties.yaml', async () => {
    const r = await inspectStorage({ root: join(FIXTURES_DIR, 'storage', 'healthy'), product: 'cassandra' });
    expect(r.ioProperties).toBeUndefined();
    expect(r.unread.map((u) => u.what).join()).not.toMatch(/io_properties/);
  });
});
